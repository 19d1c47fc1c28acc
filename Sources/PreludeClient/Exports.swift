// `import PreludeClient` is all an app writes: the core types a caller names (`Decision`, `ClientContext`,
// `SemanticVersion`, `Feature`, `AuthorizationStatus`, `RequestOrigin`, `Platform`, ...) come with it.
@_exported import PreludeCore
