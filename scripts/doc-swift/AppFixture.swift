// The app-side names the Swift examples in docs/ assume, declared so that each example type-checks on its own
// (scripts/check-doc-swift.sh). Nothing here is Prelude's API, and nothing here runs: each stands for code the app
// already has. Compiled with every example; an example sees these names, and the modules it imports itself.
import Foundation
import PreludeClient
import SwiftUI
import UIKit

/// Stands for "the app's own value": never called at run time (nothing here runs).
func appValue<T>() -> T { fatalError("declared for type-checking only") }

// Section 3's one client and the one flow over it ("Permission flows"), as the app keeps them.
let prelude: PreludeClient = appValue()
let flow: PermissionFlow = appValue()
@MainActor final class AppDelegate {
    static let shared = AppDelegate()
    let flow: PermissionFlow = appValue()
}

// The inputs of section 3's configuration example and the README's: the app's own values.
let server = URL(string: "https://prelude.example.com")!
let directory = URL(fileURLWithPath: "/tmp/Prelude", isDirectory: true)
let bootstrap: Data = appValue()
let appSupport = directory
let bundledPolicy = bootstrap
@MainActor var configuration = PreludeClientConfiguration(server: server, app: "demo", storageDirectory: directory)

// The app's own screens and actions the examples call.
func openCamera() {}
func showPriming(_ copy: [CopyField: String], completion: @escaping (_ continued: Bool) -> Void) {}
struct CameraView: View {
    var body: some View { Color.clear }
}
/// The app's screen for a decision's copy (title, message, its one action button).
struct PermissionView: View {
    init(decision: Decision, action: @escaping () -> Void) {}
    var body: some View { Color.clear }
}
/// The app's list of contacts (its own search results).
struct ContactsList: View {
    var body: some View { Color.clear }
}
extension UIViewController {
    /// The app's explanatory empty state for a decision's copy (never a blank page).
    func showEmptyState(_ copy: [CopyField: String]) {}
}
