import Foundation
import ServerRecords
import StoreEngine
import TestSupport
import Testing

/// The Retention Messaging API's state is in the store's database: it survives a restart, an
/// image a message shows stays, and a message's deletion takes its default configurations along.
@Suite struct RetentionStorageTests {
    static func message(_ id: UUID, image: UUID?) -> RetentionMessage {
        RetentionMessage(
            id: id, state: .approved, header: "Before you go", body: "Your streak is 40 days long.",
            image: image.map { RetentionImageUse(imageIdentifier: $0, altText: "A flame") }, headerPosition: nil,
            bulletPoints: [])
    }

    @Test func messagesImagesDefaultsAndTheURLSurviveAReopen() async throws {
        let first = try StoreFixture()
        let image = UUID()
        let message = UUID()
        let png = Data([0x89, 0x50])
        #expect(
            (try? await first.store.uploadRetentionImage(
                RetentionImage(id: image, state: .approved, size: .fullSize), png: png
            ).get()) != nil)
        #expect((try? await first.store.uploadRetentionMessage(Self.message(message, image: image)).get()) != nil)
        #expect(
            (try? await first.store.setDefaultRetentionMessage(
                productId: StoreFixture.monthly, locale: "en-US", messageId: message
            ).get()) != nil)
        try await first.store.setRetentionRealtimeURL("http://127.0.0.1:9/retention")

        let reopened = try StoreFixture(directory: first.directory)
        #expect(try await reopened.store.retentionMessages() == [Self.message(message, image: image)])
        #expect(
            try await reopened.store.retentionImages() == [
                RetentionImage(id: image, state: .approved, size: .fullSize)
            ])
        #expect(
            try await reopened.store.defaultRetentionMessage(productId: StoreFixture.monthly, locale: "en-US")
                == message)
        #expect(try await reopened.store.retentionRealtimeURL() == "http://127.0.0.1:9/retention")
    }

    /// The refusal, nil for success.
    static func refusal(_ result: Result<Void, RetentionRefusal>) -> RetentionRefusal? {
        if case .failure(let refusal) = result { refusal } else { nil }
    }

    @Test func refusalsNameWhatIsWrong() async throws {
        let fixture = try StoreFixture()
        let store = fixture.store
        let image = UUID()
        let message = UUID()
        let full = RetentionImage(id: image, state: .approved, size: .fullSize)
        #expect(
            Self.refusal(try await store.uploadRetentionMessage(Self.message(message, image: image)))
                == .imageNotFound(image))
        _ = try await store.uploadRetentionImage(full, png: Data())
        #expect(Self.refusal(try await store.uploadRetentionImage(full, png: Data())) == .alreadyExists)
        let another = RetentionImage(id: UUID(), state: .approved, size: .fullSize)
        #expect(Self.refusal(try await store.uploadRetentionImage(another, png: Data(), limit: 1)) == .limitReached)
        _ = try await store.uploadRetentionMessage(Self.message(message, image: image))
        #expect(Self.refusal(try await store.deleteRetentionImage(image)) == .imageInUse)
        _ = try await store.setDefaultRetentionMessage(
            productId: StoreFixture.monthly, locale: "en-US", messageId: message)
        #expect(try await store.deleteRetentionMessage(message))
        #expect(try await store.defaultRetentionMessage(productId: StoreFixture.monthly, locale: "en-US") == nil)
        #expect(Self.refusal(try await store.deleteRetentionImage(image)) == nil)
        #expect(Self.refusal(try await store.deleteRetentionImage(image)) == .notFound)
    }
}
