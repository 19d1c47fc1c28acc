// Stub of Apple's Combine for scripts/check-doc-swift.sh: only the symbols the Swift examples in docs/ use (SwiftUI
// re-exports Combine), each declaration transcribed from the Apple documentation page above it. Type-checked, never run.
@_exported import Foundation

// https://developer.apple.com/documentation/combine/observableobject (`protocol ObservableObject : AnyObject`; its
// `objectWillChange` publisher is left out: no example names it)
public protocol ObservableObject: AnyObject {}

// https://developer.apple.com/documentation/combine/published (`@propertyWrapper struct Published<Value>`)
@propertyWrapper
public struct Published<Value> {
    // https://developer.apple.com/documentation/combine/published/init(wrappedvalue:) (`init(wrappedValue: Value)`)
    public init(wrappedValue: Value) { fatalError("stub") }
    // The real wrapper reaches its storage through the enclosing instance; a plain stored-looking value types the same
    // uses (`gate.decision`, assignment inside the class).
    public var wrappedValue: Value {
        get { fatalError("stub") }
        set { fatalError("stub") }
    }
}
