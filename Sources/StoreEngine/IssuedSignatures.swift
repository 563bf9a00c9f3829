import Crypto
import Foundation
import Synchronization

/// The signatures of the transaction JWS already issued, by the SHA-256 of their signing input
/// (header and payload). A transaction's payload changes only when the transaction does (its
/// `signedDate` is its modified date), so a read finds the JWS issued at its last change and
/// returns the same bytes: each JWS is signed once per change. Only the 64-byte signature is
/// kept; the signing input is rebuilt on every read to find it. New ones are written to the
/// store in the background (every second, and at shutdown), so a kill loses at most the last
/// second's, which are then signed again.
public final class IssuedSignatures: Sendable {
    private let state = Mutex<(known: [Data: String], unsaved: [(Data, String)])>(([:], []))

    public init() {}

    func signature(for digest: Data) -> String? {
        state.withLock { $0.known[digest] }
    }

    /// Keeps the first signature of a digest and returns the one kept.
    func remember(_ signature: String, for digest: Data) -> String {
        state.withLock { state in
            if let kept = state.known[digest] { return kept }
            state.known[digest] = signature
            state.unsaved.append((digest, signature))
            return signature
        }
    }

    /// Those the store kept from earlier runs.
    package func load(_ saved: [(Data, String)]) {
        state.withLock { state in
            for (digest, signature) in saved where state.known[digest] == nil { state.known[digest] = signature }
        }
    }

    package func takeUnsaved() -> [(Data, String)] {
        state.withLock { state in
            defer { state.unsaved = [] }
            return state.unsaved
        }
    }

    static func digest(_ signingInput: String) -> Data {
        Data(SHA256.hash(data: Data(signingInput.utf8)))
    }
}
