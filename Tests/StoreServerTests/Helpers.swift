import Crypto
import Foundation
import LocalState
import StoreCore

/// Lowercase hex SHA-256, as the server hashes an idempotent request (method, path, body).
func sha256Hex(_ bytes: [UInt8]) -> String {
    SHA256.hash(data: Data(bytes)).map { String(format: "%02x", $0) }.joined()
}
