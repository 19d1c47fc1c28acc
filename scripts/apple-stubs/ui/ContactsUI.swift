// Stub of Apple's ContactsUI for scripts/check-doc-swift.sh: only the symbols the Swift examples in docs/ use, each
// declaration transcribed from the Apple documentation page above it. Type-checked, never run.
// The contact access picker is a SwiftUI View modifier that ContactsUI declares: the page lists it under SwiftUI,
// and its precise identifier (`s:7SwiftUI4ViewP08ContactsB0E19contactAccessPicker…`) names an extension of
// SwiftUI.View in the module ContactsUI, so an app imports ContactsUI (and SwiftUI) to use it.
@_exported import Foundation
import Contacts
import SwiftUI

extension View {
    // https://developer.apple.com/documentation/swiftui/view/contactaccesspicker(ispresented:completionhandler:)
    // (iOS 18: `@MainActor @preconcurrency func contactAccessPicker(isPresented: Binding<Bool>, completionHandler:
    // @escaping ([String]) -> Void = { _ in }) -> some View`)
    @MainActor @preconcurrency public func contactAccessPicker(
        isPresented: Binding<Bool>, completionHandler: @escaping ([String]) -> Void = { _ in }
    ) -> some View { fatalError("stub") }
}
