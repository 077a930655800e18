import Foundation
import ParallaxFuzzing

/// libFuzzer's entry point: the target named by `PARALLAX_FUZZ_TARGET`.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ bytes: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let target = currentTarget
    target.run(Data(bytes: bytes, count: size))
    return 0
}

let currentTarget: FuzzTarget = {
    let name = ProcessInfo.processInfo.environment["PARALLAX_FUZZ_TARGET"] ?? ""
    guard let target = FuzzTarget(rawValue: name) else {
        FileHandle.standardError.write(Data("PARALLAX_FUZZ_TARGET must be one of \(FuzzTarget.allCases.map(\.rawValue).joined(separator: ", ")), got '\(name)'\n".utf8))
        exit(2)
    }
    return target
}()
