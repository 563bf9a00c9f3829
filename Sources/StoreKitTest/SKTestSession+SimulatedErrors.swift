import Foundation
import StoreCore
@_spi(Storefront) import StoreKit

extension SKTestSession {
    /// Makes every call of `api` fail with `error` until it is set to nil: the store's
    /// `api-error` control, which the terminal and `storefront manage` show too.
    public func setSimulatedError<API: FailableStoreKitAPI>(_ error: API.Failure?, forAPI api: API) async throws {
        guard let simulated = (API.self as? any StoreSimulatedAPI.Type)?.simulated else { return }
        let stored = (error as? any StoreErrorFailure)?.storeError
        try await changeControls { controls in
            controls.apiErrors[simulated] = error == nil ? nil : stored ?? .storeKit(.unknown)
        }
        simulatedErrors.withLock { $0[simulated.rawValue] = error }
    }

    /// The error `api` is made to fail with, if any.
    public func simulatedError<API: FailableStoreKitAPI>(forAPI api: API) async -> API.Failure? {
        guard let simulated = (API.self as? any StoreSimulatedAPI.Type)?.simulated,
            let stored = try? await store.backend.controls().apiErrors[simulated]
        else { return nil }
        if let kept = simulatedErrors.withLock({ $0[simulated.rawValue] }) as? API.Failure,
            (kept as? any StoreErrorFailure)?.storeError == stored
        {
            return kept
        }
        return (API.Failure.self as? any StoreErrorFailure.Type)?.init(storeError: stored) as? API.Failure
    }
}
