/// The Info.plist keys that hold purpose strings (usage descriptions), with the feature each explains.
public enum PurposeStringKey {
    /// Every known purpose-string key whose value is a single string.
    public static let known: Set<String> = [
        "NSCameraUsageDescription", "NSMicrophoneUsageDescription",
        "NSPhotoLibraryUsageDescription", "NSPhotoLibraryAddUsageDescription",
        "NSContactsUsageDescription",
        "NSLocationWhenInUseUsageDescription", "NSLocationAlwaysAndWhenInUseUsageDescription",
        "NSLocationAlwaysUsageDescription", "NSLocationUsageDescription",
        "NSUserTrackingUsageDescription", "NSUserTrackingMarkdownUsageDescription",
        "NSBluetoothAlwaysUsageDescription", "NSBluetoothPeripheralUsageDescription",
        "NSCalendarsUsageDescription", "NSCalendarsFullAccessUsageDescription",
        "NSCalendarsWriteOnlyAccessUsageDescription",
        "NSRemindersUsageDescription", "NSRemindersFullAccessUsageDescription",
        "NSMotionUsageDescription", "NSSpeechRecognitionUsageDescription",
        "NSHealthShareUsageDescription", "NSHealthUpdateUsageDescription",
        "NSHealthClinicalHealthRecordsShareUsageDescription",
        "NSLocalNetworkUsageDescription", "NSFaceIDUsageDescription", "NSAppleMusicUsageDescription",
        "NSHomeKitUsageDescription", "NSSiriUsageDescription", "NSNearbyInteractionUsageDescription",
        "NFCReaderUsageDescription", "NSFocusStatusUsageDescription", "NSSensorKitUsageDescription",
        "NSFallDetectionUsageDescription", "NSIdentityUsageDescription", "NSUserNotificationsUsageDescription",
        "NSAlarmKitUsageDescription",
    ]

    /// The tracking purpose string in Markdown (iOS 27.2), shown in the full-page sheet; optional, the system falls
    /// back to `NSUserTrackingUsageDescription` without it.
    public static let trackingMarkdown = "NSUserTrackingMarkdownUsageDescription"
}
