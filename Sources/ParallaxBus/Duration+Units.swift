extension Duration {
    /// This duration in seconds.
    public var seconds: Double { Double(components.seconds) + Double(components.attoseconds) * 1e-18 }

    /// This duration in whole nanoseconds.
    public var nanoseconds: Int64 { components.seconds * 1_000_000_000 + components.attoseconds / 1_000_000_000 }
}
