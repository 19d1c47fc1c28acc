// Stub of Apple's SwiftUI for scripts/check-doc-swift.sh: only the symbols the Swift examples in docs/ use, each
// declaration transcribed from the Apple documentation page above it (labels, parameter and return types,
// isolation, async). Type-checked, never run. The pages now mark view content `@ContentBuilder` (Xcode 27); the
// ViewBuilder page says to use `@ViewBuilder` when building with Xcode 26 and earlier, which is what is declared here.
// Primitive views have `Body == Never`, as SwiftUI's do; modifiers return `some View` (a stub returns `Never`).
@_exported import Combine
@_exported import Foundation
import UIKit

// https://developer.apple.com/documentation/swiftui/view (`@MainActor @preconcurrency protocol View`)
@MainActor @preconcurrency
public protocol View {
    // https://developer.apple.com/documentation/swiftui/view/body-swift.associatedtype (`associatedtype Body : View`)
    associatedtype Body: View
    // https://developer.apple.com/documentation/swiftui/view/body-8kl5o
    // (`@ContentBuilder @MainActor @preconcurrency var body: Self.Body { get }`)
    @ViewBuilder @MainActor @preconcurrency var body: Self.Body { get }
}

// https://developer.apple.com/documentation/swift/never (SwiftUI: "Never conforms to View": the body of primitive views)
extension Never: View {
    public typealias Body = Never
    nonisolated public var body: Never { fatalError("stub") }
}

// https://developer.apple.com/documentation/swiftui/viewbuilder (`@resultBuilder struct ViewBuilder`)
@resultBuilder
public struct ViewBuilder {
    // https://developer.apple.com/documentation/swiftui/viewbuilder/buildblock() (`static func buildBlock() -> EmptyView`)
    public static func buildBlock() -> EmptyView { EmptyView() }
    // https://developer.apple.com/documentation/swiftui/viewbuilder/buildblock(_:)
    // (`static func buildBlock<Content>(_ content: Content) -> Content`; this page and the two below print the
    // Xcode 27 ContentBuilder form without `where Content : View`, which the Xcode 26 ViewBuilder has)
    public static func buildBlock<Content: View>(_ content: Content) -> Content { content }
    // https://developer.apple.com/documentation/swiftui/viewbuilder/buildblock(_:)-2bj1g
    // (`static func buildBlock<each Content>(_ content: repeat each Content) -> TupleView<(repeat each Content)>
    // where repeat each Content : View`)
    public static func buildBlock<each Content: View>(_ content: repeat each Content) -> TupleView<(repeat each Content)> {
        fatalError("stub")
    }
    // https://developer.apple.com/documentation/swiftui/viewbuilder/buildif(_:)
    // (`static func buildIf<Content>(_ content: Content?) -> Content?`)
    public static func buildIf<Content: View>(_ content: Content?) -> Content? { content }
    // https://developer.apple.com/documentation/swiftui/viewbuilder/buildeither(first:)
    // (`static func buildEither<TrueContent, FalseContent>(first: TrueContent) -> _ConditionalContent<TrueContent, FalseContent>`)
    public static func buildEither<TrueContent: View, FalseContent: View>(
        first: TrueContent
    ) -> _ConditionalContent<TrueContent, FalseContent> { fatalError("stub") }
    // https://developer.apple.com/documentation/swiftui/viewbuilder/buildeither(second:)
    public static func buildEither<TrueContent: View, FalseContent: View>(
        second: FalseContent
    ) -> _ConditionalContent<TrueContent, FalseContent> { fatalError("stub") }
}

// https://developer.apple.com/documentation/swiftui/emptyview (`@frozen struct EmptyView`; `init()`)
public struct EmptyView: View {
    nonisolated public init() {}
    public typealias Body = Never
    nonisolated public var body: Never { fatalError("stub") }
}

// https://developer.apple.com/documentation/swiftui/tupleview (`@frozen struct TupleView<T>`)
public struct TupleView<T>: View {
    public typealias Body = Never
    nonisolated public var body: Never { fatalError("stub") }
}

// https://developer.apple.com/documentation/swiftui/_conditionalcontent (`@frozen struct _ConditionalContent<TrueContent,
// FalseContent>`, a View when both are)
public struct _ConditionalContent<TrueContent: View, FalseContent: View>: View {
    public typealias Body = Never
    nonisolated public var body: Never { fatalError("stub") }
}

// https://developer.apple.com/documentation/swiftui/view (Optional: "Conforms when Wrapped conforms to View")
extension Optional: View where Wrapped: View {
    public typealias Body = Never
    nonisolated public var body: Never { fatalError("stub") }
}

// https://developer.apple.com/documentation/swiftui/group (`@frozen struct Group<Content>`, a View when Content is)
public struct Group<Content: View>: View {
    // https://developer.apple.com/documentation/swiftui/group/init(content:)
    // (`nonisolated init(@ContentBuilder content: () -> Content)`)
    nonisolated public init(@ViewBuilder content: () -> Content) {}
    public typealias Body = Never
    nonisolated public var body: Never { fatalError("stub") }
}

// https://developer.apple.com/documentation/swiftui/color (`@frozen struct Color`)
public struct Color: View, Hashable, Sendable {
    // https://developer.apple.com/documentation/swiftui/color/clear (`static let clear: Color`)
    public static let clear = Color()
    public typealias Body = Never
    nonisolated public var body: Never { fatalError("stub") }
}

// https://developer.apple.com/documentation/swiftui/text (`@frozen struct Text`)
public struct Text: View, Equatable, Sendable {
    // https://developer.apple.com/documentation/swiftui/text/init(_:)-9d1g4
    // (`init<S>(_ content: S) where S : StringProtocol`)
    nonisolated public init<S: StringProtocol>(_ content: S) {}
    public typealias Body = Never
    nonisolated public var body: Never { fatalError("stub") }
}

// https://developer.apple.com/documentation/swiftui/button (`@MainActor @preconcurrency struct Button<Label> where
// Label : View`)
public struct Button<Label: View>: View {
    public typealias Body = Never
    nonisolated public var body: Never { fatalError("stub") }
}

extension Button where Label == Text {
    // https://developer.apple.com/documentation/swiftui/button/init(_:action:)-lpm7
    // (`@preconcurrency nonisolated init<S>(_ title: S, action: @escaping @MainActor () -> Void) where S : StringProtocol`)
    @preconcurrency nonisolated public init<S: StringProtocol>(_ title: S, action: @escaping @MainActor () -> Void) {}
}

// https://developer.apple.com/documentation/swiftui/binding (`@frozen @propertyWrapper @dynamicMemberLookup
// struct Binding<Value>`)
@propertyWrapper
public struct Binding<Value> {
    // https://developer.apple.com/documentation/swiftui/binding/init(get:set:)
    // (`init(get: @escaping () -> Value, set: @escaping (Value) -> Void)`)
    public init(get: @escaping () -> Value, set: @escaping (Value) -> Void) {}
    // https://developer.apple.com/documentation/swiftui/binding/wrappedvalue (`var wrappedValue: Value { get nonmutating set }`)
    public var wrappedValue: Value {
        get { fatalError("stub") }
        nonmutating set { fatalError("stub") }
    }
    // https://developer.apple.com/documentation/swiftui/binding/projectedvalue (`var projectedValue: Binding<Value> { get }`)
    public var projectedValue: Binding<Value> { self }
}

// https://developer.apple.com/documentation/swiftui/state (`@frozen @propertyWrapper struct State<Value>`)
@propertyWrapper
public struct State<Value> {
    // https://developer.apple.com/documentation/swiftui/state/init(wrappedvalue:) (`init(wrappedValue value: Value)`)
    public init(wrappedValue value: Value) {}
    // https://developer.apple.com/documentation/swiftui/state/init(initialvalue:) (`init(initialValue value: Value)`)
    public init(initialValue value: Value) {}
    // https://developer.apple.com/documentation/swiftui/state/wrappedvalue (`var wrappedValue: Value { get nonmutating set }`)
    public var wrappedValue: Value {
        get { fatalError("stub") }
        nonmutating set { fatalError("stub") }
    }
    // https://developer.apple.com/documentation/swiftui/state/projectedvalue (`var projectedValue: Binding<Value> { get }`)
    public var projectedValue: Binding<Value> { fatalError("stub") }
}

// https://developer.apple.com/documentation/swiftui/stateobject (`@MainActor @frozen @propertyWrapper @preconcurrency
// struct StateObject<ObjectType> where ObjectType : ObservableObject`)
@MainActor @preconcurrency @propertyWrapper
public struct StateObject<ObjectType: ObservableObject> {
    // https://developer.apple.com/documentation/swiftui/stateobject/init(wrappedvalue:)
    // (`nonisolated init(wrappedValue thunk: @autoclosure @escaping () -> ObjectType)`)
    nonisolated public init(wrappedValue thunk: @autoclosure @escaping () -> ObjectType) {}
    // https://developer.apple.com/documentation/swiftui/stateobject/wrappedvalue (`var wrappedValue: ObjectType { get }`)
    public var wrappedValue: ObjectType { fatalError("stub") }
}

// https://developer.apple.com/documentation/swiftui/scenephase (`enum ScenePhase`: Equatable, Hashable, Sendable)
public enum ScenePhase: Hashable, Sendable {
    // https://developer.apple.com/documentation/swiftui/scenephase/background
    case background
    // https://developer.apple.com/documentation/swiftui/scenephase/inactive
    case inactive
    // https://developer.apple.com/documentation/swiftui/scenephase/active
    case active
}

// https://developer.apple.com/documentation/swiftui/environmentvalues (`struct EnvironmentValues`)
public struct EnvironmentValues {
    // https://developer.apple.com/documentation/swiftui/environmentvalues/scenephase (`var scenePhase: ScenePhase { get set }`)
    public var scenePhase: ScenePhase {
        get { fatalError("stub") }
        set { fatalError("stub") }
    }
}

// https://developer.apple.com/documentation/swiftui/environment (`@frozen @propertyWrapper struct Environment<Value>`)
@propertyWrapper
public struct Environment<Value> {
    // https://developer.apple.com/documentation/swiftui/environment/init(_:)
    // (`init(_ keyPath: KeyPath<EnvironmentValues, Value>)`)
    public init(_ keyPath: KeyPath<EnvironmentValues, Value>) {}
    // https://developer.apple.com/documentation/swiftui/environment/wrappedvalue (`var wrappedValue: Value { get }`)
    public var wrappedValue: Value { fatalError("stub") }
}

extension View {
    // The task modifiers' `action` is also `@_inheritActorContext` in SwiftUI's module interface, an underscored
    // attribute the documentation pages do not print: the closure runs on the view's actor (the main actor), which
    // is how the pages' own examples assign `@State` inside it. The reimplementation of that interface in
    // OpenSwiftUI declares `task(priority:_:)` and `task(id:priority:_:)` the same way
    // (`@_inheritActorContext _ action: @escaping @Sendable () async -> Void`).
    // https://developer.apple.com/documentation/swiftui/view/task(name:priority:file:line:_:) (iOS 15)
    // (`nonisolated func task(name: String? = nil, priority: TaskPriority = .userInitiated, file: String = #fileID,
    // line: Int = #line, _ action: sending @escaping @isolated(any) () async -> Void) -> some View`)
    nonisolated public func task(
        name: String? = nil, priority: TaskPriority = .userInitiated, file: String = #fileID, line: Int = #line,
        @_inheritActorContext _ action: sending @escaping @isolated(any) () async -> Void
    ) -> some View { fatalError("stub") }

    // https://developer.apple.com/documentation/swiftui/view/task(id:name:priority:file:line:_:) (iOS 15)
    // (`nonisolated func task<T>(id: T, name: String? = nil, priority: TaskPriority = .userInitiated,
    // file: String = #fileID, line: Int = #line, _ action: sending @escaping @isolated(any) () async -> Void)
    // -> some View where T : Equatable`)
    nonisolated public func task<T: Equatable>(
        id: T, name: String? = nil, priority: TaskPriority = .userInitiated, file: String = #fileID,
        line: Int = #line, @_inheritActorContext _ action: sending @escaping @isolated(any) () async -> Void
    ) -> some View { fatalError("stub") }

    // https://developer.apple.com/documentation/swiftui/view/onchange(of:initial:_:)-4psgg (iOS 17)
    // (`nonisolated func onChange<V>(of value: V, initial: Bool = false, _ action: @escaping (V, V) -> Void)
    // -> some View where V : Equatable`)
    nonisolated public func onChange<V: Equatable>(
        of value: V, initial: Bool = false, _ action: @escaping (V, V) -> Void
    ) -> some View { fatalError("stub") }

    // https://developer.apple.com/documentation/swiftui/view/onchange(of:initial:_:) (iOS 17)
    // (`nonisolated func onChange<V>(of value: V, initial: Bool = false, _ action: @escaping () -> Void)
    // -> some View where V : Equatable`)
    nonisolated public func onChange<V: Equatable>(
        of value: V, initial: Bool = false, _ action: @escaping () -> Void
    ) -> some View { fatalError("stub") }

    // https://developer.apple.com/documentation/swiftui/view/onchange(of:perform:) (iOS 14–17, deprecated in 17)
    // (`nonisolated func onChange<V>(of value: V, perform action: @escaping (V) -> Void) -> some View where V : Equatable`)
    nonisolated public func onChange<V: Equatable>(of value: V, perform action: @escaping (V) -> Void) -> some View {
        fatalError("stub")
    }
}

// https://developer.apple.com/documentation/swiftui/uihostingcontroller
// (`@MainActor @preconcurrency class UIHostingController<Content> where Content : View`; a UIViewController)
@MainActor @preconcurrency
open class UIHostingController<Content: View>: UIViewController {
    // https://developer.apple.com/documentation/swiftui/uihostingcontroller/init(rootview:)
    // (`@MainActor @preconcurrency init(rootView: Content)`)
    public init(rootView: Content) { super.init() }
}
