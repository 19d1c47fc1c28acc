// Stub of Apple's CoreLocation for scripts/check-apple-sources.sh: only the symbols Sources/PreludeClient uses,
// each declaration transcribed from the Apple documentation page above it. Type-checked, never run.
@_exported import Foundation

// https://developer.apple.com/documentation/corelocation/clauthorizationstatus (`enum CLAuthorizationStatus: Int32`)
public enum CLAuthorizationStatus: Int32, Sendable {
    case notDetermined = 0
    case restricted = 1
    case denied = 2
    case authorizedAlways = 3
    case authorizedWhenInUse = 4
}

// https://developer.apple.com/documentation/corelocation/claccuracyauthorization (`enum CLAccuracyAuthorization: Int`)
public enum CLAccuracyAuthorization: Int, Sendable {
    case fullAccuracy = 0
    case reducedAccuracy = 1
}

// https://developer.apple.com/documentation/corelocation/cllocationmanager
open class CLLocationManager: NSObject {
    public override init() {}

    // https://developer.apple.com/documentation/corelocation/cllocationmanager/authorizationstatus-swift.property
    open var authorizationStatus: CLAuthorizationStatus { fatalError("stub") }

    // https://developer.apple.com/documentation/corelocation/cllocationmanager/accuracyauthorization
    open var accuracyAuthorization: CLAccuracyAuthorization { fatalError("stub") }

    // https://developer.apple.com/documentation/corelocation/cllocationmanager/locationservicesenabled()
    // (`class func locationServicesEnabled() -> Bool`)
    open class func locationServicesEnabled() -> Bool { fatalError("stub") }
}
