import Foundation

// Thin internal aliases so files that need one elementary function don't each import Foundation.
@inline(__always) func _log(_ x: Double) -> Double { Foundation.log(x) }
@inline(__always) func _cos(_ x: Double) -> Double { Foundation.cos(x) }
