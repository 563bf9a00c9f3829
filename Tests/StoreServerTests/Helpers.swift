import Crypto
import Foundation
import HTTPTypes
import Hummingbird

enum SHA256Helper {
    static func hex(_ bytes: [UInt8]) -> String {
        SHA256.hash(data: Data(bytes)).map { String(format: "%02x", $0) }.joined()
    }
}
