/// What {{name}} offers to the rest of the product. {{summary}}
///
/// Depend on this module, not on {{name}}: the implementation is injected at the composition root.
public protocol {{Name}}Service: AnyObject {
    /// The version of the implementation behind this interface.
    var version: String { get }
}
