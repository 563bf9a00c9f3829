import Foundation
import NIOSSL
import PostgresNIO
import StoreCore

extension PostgresLocation {
    /// How postgres-nio reaches this location: over TCP, with TLS as `sslmode` says, or through the
    /// Unix socket, where PostgreSQL never uses TLS.
    func connectionConfiguration() throws -> PostgresConnection.Configuration {
        if let socketDirectory {
            return PostgresConnection.Configuration(
                unixSocketPath: "\(socketDirectory)/.s.PGSQL.\(port)", username: username, password: password,
                database: database)
        }
        return PostgresConnection.Configuration(
            host: host, port: port, username: username, password: password, database: database, tls: try tls())
    }

    /// `sslmode` as libpq honours it. With root certificates (`sslrootcert`, else
    /// `~/.postgresql/root.crt` when it exists) `prefer` and `require` verify the certificate's
    /// chain as `verify-ca` does, as libpq's do; without, they encrypt but trust whoever answers.
    /// `verify-full` also checks that the certificate names the host (or, for an IP address, holds
    /// it). Unlike libpq's, `prefer` does not retry without TLS after a failed handshake.
    func tls() throws -> PostgresConnection.Configuration.TLS {
        guard sslMode != .disable else { return .disable }
        var configuration = TLSConfiguration.makeClientConfiguration()
        let roots = try trustRoots()
        switch (sslMode, roots) {
        case (.verifyFull, _): configuration.certificateVerification = .fullVerification
        case (.verifyCA, _), (_, .some(_)): configuration.certificateVerification = .noHostnameVerification
        default: configuration.certificateVerification = .none
        }
        if let roots {
            configuration.trustRoots = roots
        } else if sslMode.verifies {
            throw StoreFailure(
                "\(description): sslmode=\(sslMode.rawValue) needs the certificates that sign the server's: add sslrootcert=FILE (PEM) to the URL, or sslrootcert=system for the system's certificate authorities"
            )
        }
        let context: NIOSSLContext
        do {
            context = try NIOSSLContext(configuration: configuration)
        } catch {
            throw StoreFailure("\(description): cannot set up TLS: \(error)")
        }
        return sslMode == .prefer ? .prefer(context) : .require(context)
    }

    /// The certificates that may sign the server's; nil: none given, nor in libpq's default file.
    func trustRoots() throws -> NIOSSLTrustRoots? {
        if sslRootCertificate == "system" { return .default }
        let defaultFile = FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".postgresql/root.crt")
        guard
            let path = sslRootCertificate
                ?? (FileManager.default.fileExists(atPath: defaultFile.path) ? defaultFile.path : nil)
        else { return nil }
        guard FileManager.default.isReadableFile(atPath: path) else {
            throw StoreFailure(
                "\(description): sslrootcert \(path) is no readable file: name the PEM file of the certificate authority that signed the server's certificate"
            )
        }
        do {
            let certificates = try NIOSSLCertificate.fromPEMFile(path)
            guard !certificates.isEmpty else { throw NIOSSLError.failedToLoadCertificate }
            return .certificates(certificates)
        } catch {
            throw StoreFailure(
                "\(description): sslrootcert \(path) holds no PEM certificate (\(error)): name the PEM file (-----BEGIN CERTIFICATE-----) of the certificate authority that signed the server's certificate"
            )
        }
    }
}
