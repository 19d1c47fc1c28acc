/// A system UI that serves a task without any permission: what strategy `permissionless` (and the `pick` use case)
/// tells the app to present instead of asking (docs/catalogue.md lists which feature has which, since when).
public enum PermissionlessPath: String, CaseIterable, Sendable, Hashable, Codable, CustomStringConvertible {
    /// PhotosUI's picker (`PhotosPicker`, `PHPickerViewController`, iOS 14): runs out of process, needs no access.
    case photosPicker
    /// ContactsUI's `CNContactPickerViewController` (iOS 9): the app gets only the contacts picked.
    case contactPicker
    /// EventKitUI's `EKEventEditViewController` (iOS 17 without any calendar access): the person saves one event.
    case eventEditor
    /// AccessorySetupKit's picker (`ASAccessorySession.showPicker`, iOS 18): per-accessory consent, no Bluetooth
    /// (or Wi-Fi, or local network) prompt.
    case accessorySetup
    /// Wi-Fi Aware pairing (iOS 26) through DeviceDiscoveryUI (or AccessorySetupKit for an accessory): the person
    /// picks the device in system UI, and the app talks to it peer to peer with no local network prompt.
    case wifiAwarePairing

    /// The JSON name.
    public var description: String { rawValue }
}
