import Foundation

@testable import Decoding

extension PathDecoder {
    /// ``fastDecode(_:from:at:)`` as a `Result`: the value, the failure, or why the fast path
    /// deferred.
    func decodeOnFastPath<T: Decodable>(
        _ type: T.Type, from data: Data, at path: PathExpression? = nil
    ) -> Result<T, FastPathStop> {
        Result { () throws(FastPathStop) in try fastDecode(type, from: data, at: path) }
    }
}
