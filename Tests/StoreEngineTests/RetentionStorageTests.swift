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
            (try? await first.store.retention.uploadImage(
                RetentionImage(id: image, state: .approved, size: .fullSize), png: png
            ).get()) != nil)
        #expect((try? await first.store.retention.uploadMessage(Self.message(message, image: image)).get()) != nil)
        #expect(
            (try? await first.store.retention.setDefaultMessage(
                productId: StoreFixture.monthly, locale: "en-US", messageId: message
            ).get()) != nil)
        try await first.store.retention.setRealtimeURL("http://127.0.0.1:9/retention")

        let reopened = try StoreFixture(directory: first.directory)
        #expect(try await reopened.store.retention.messages() == [Self.message(message, image: image)])
        #expect(
            try await reopened.store.retention.images() == [
                RetentionImage(id: image, state: .approved, size: .fullSize)
            ])
        #expect(
            try await reopened.store.retention.defaultMessage(productId: StoreFixture.monthly, locale: "en-US")
                == message)
        #expect(try await reopened.store.retention.realtimeURL() == "http://127.0.0.1:9/retention")
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
            Self.refusal(try await store.retention.uploadMessage(Self.message(message, image: image)))
                == .imageNotFound(image))
        _ = try await store.retention.uploadImage(full, png: Data())
        #expect(Self.refusal(try await store.retention.uploadImage(full, png: Data())) == .alreadyExists)
        let another = RetentionImage(id: UUID(), state: .approved, size: .fullSize)
        #expect(Self.refusal(try await store.retention.uploadImage(another, png: Data(), limit: 1)) == .limitReached)
        _ = try await store.retention.uploadMessage(Self.message(message, image: image))
        #expect(Self.refusal(try await store.retention.deleteImage(image)) == .imageInUse)
        _ = try await store.retention.setDefaultMessage(
            productId: StoreFixture.monthly, locale: "en-US", messageId: message)
        #expect(try await store.retention.deleteMessage(message))
        #expect(try await store.retention.defaultMessage(productId: StoreFixture.monthly, locale: "en-US") == nil)
        #expect(Self.refusal(try await store.retention.deleteImage(image)) == nil)
        #expect(Self.refusal(try await store.retention.deleteImage(image)) == .notFound)
    }
}
