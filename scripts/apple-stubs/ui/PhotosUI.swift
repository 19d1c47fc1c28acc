// Stub of Apple's PhotosUI for scripts/check-doc-swift.sh: only the symbols the Swift examples in docs/ use, each
// declaration transcribed from the Apple documentation page above it. Type-checked, never run.
// The limited-library picker is a PHPhotoLibrary method that Photos documents but PhotosUI declares
// (PhotosUI.framework/Headers/PHPhotoLibrary+PhotosUISupport.h: `@interface PHPhotoLibrary
// (PhotosUISupport_LimitedLibraryPicker)`, iOS 14+), so an app imports PhotosUI to call it.
@_exported import Foundation
import Photos
import UIKit

extension PHPhotoLibrary {
    // https://developer.apple.com/documentation/photos/phphotolibrary/presentlimitedlibrarypicker(from:completionhandler:)
    // (iOS 15: `func presentLimitedLibraryPicker(from controller: UIViewController, completionHandler:
    // @escaping @Sendable ([String]) -> Void)` and `func presentLimitedLibraryPicker(from controller:
    // UIViewController) async -> [String]`)
    @MainActor public func presentLimitedLibraryPicker(
        from controller: UIViewController, completionHandler: @escaping @Sendable ([String]) -> Void
    ) { fatalError("stub") }
    @MainActor public func presentLimitedLibraryPicker(from controller: UIViewController) async -> [String] {
        fatalError("stub")
    }
}
