/// Finds an analyzer's ports in its stored properties, so that one declaration
/// (`let frames: InputPort<CameraFrame>`) is all the bus needs: no hand-kept port lists that
/// could disagree with the properties.
///
/// Looks at the analyzer's own stored properties (not nested ones) of type ``InputPort``,
/// ``OutputPort``, an `Optional` of one (absent when `nil`) or an `Array` of them, in
/// declaration order. Each port is named after its property (`streams.0` for array elements).
enum PortDiscovery {
    static func ports(of analyzer: Any) -> (inputs: [PortDescription], outputs: [PortDescription]) {
        var inputs: [PortDescription] = [], outputs: [PortDescription] = []
        func add(_ port: any DeclaredPort, name: String) {
            var p = port.erased
            p.name = name
            if port.isInput { inputs.append(p) } else { outputs.append(p) }
        }
        for child in Mirror(reflecting: analyzer).children {
            guard let label = child.label else { continue }
            if let port = child.value as? any DeclaredPort {
                add(port, name: label)
            } else if let list = child.value as? [any DeclaredPort] {
                for (i, port) in list.enumerated() { add(port, name: "\(label).\(i)") }
            }
        }
        return (inputs, outputs)
    }
}

extension Analyzer {
    /// The inputs: every ``InputPort`` stored property (see ``PortDiscovery``).
    public var inputs: [PortDescription] { PortDiscovery.ports(of: self).inputs }
    /// The outputs: every ``OutputPort`` stored property.
    public var outputs: [PortDescription] { PortDiscovery.ports(of: self).outputs }
}
