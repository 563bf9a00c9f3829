import StoreEngine

/// How the server's values print. swift-service-lifecycle logs every service at start (debug level)
/// with `String(describing:)`, which reflects stored properties all the way down: the admin token
/// and the shared secret inside `ServerConfiguration` were printed whole. Types that hold a secret
/// describe themselves without it, and the maintenance service by its name alone.

extension ServerConfiguration: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    public var description: String {
        "ServerConfiguration(host: \(host), port: \(port), environment: \(environment.name), adminToken: <redacted>, "
            + "sharedSecret: \(sharedSecret == nil ? "none" : "<redacted>"), bodyLimit: \(bodyLimit), receiptBodyLimit: \(receiptBodyLimit))"
    }

    public var debugDescription: String { description }

    public var customMirror: Mirror {
        Mirror(
            self,
            children: [
                "host": host, "port": port, "environment": environment.name.rawValue, "adminToken": "<redacted>",
                "sharedSecret": sharedSecret == nil ? "none" : "<redacted>",
            ], displayStyle: .struct)
    }
}

extension TransactionSigner: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    public var description: String { "TransactionSigner(keyId: \(keyId), private key <redacted>)" }
    public var debugDescription: String { description }
    public var customMirror: Mirror { Mirror(self, children: ["keyId": keyId], displayStyle: .struct) }
}

extension StoreService: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    public var description: String { "StoreService(\(configuration), \(signer))" }
    public var debugDescription: String { description }
    public var customMirror: Mirror {
        Mirror(self, children: ["configuration": configuration, "signer": signer], displayStyle: .struct)
    }
}

extension MaintenanceService: CustomStringConvertible {
    var description: String { "MaintenanceService" }
}
