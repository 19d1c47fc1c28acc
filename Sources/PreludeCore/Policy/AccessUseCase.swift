/// What a feature's access is for, where an out-of-process system picker may serve it without any permission
/// (reference PA-9; App Review 5.1.1(iii): request only the access the feature needs).
public enum AccessUseCase: String, CaseIterable, Sendable, Hashable, Codable {
    /// People pick items: photos to upload or attach (PHPickerViewController, no permission needed), one contact
    /// (CNContactPickerViewController, no permission needed). Only photos and contacts have this use case.
    case pick
    /// The app reads the library itself (a gallery, a backup, finding friends in the address book): the
    /// permission is needed and the usual flow applies.
    case library
}
