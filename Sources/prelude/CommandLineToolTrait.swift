// The tool parses its arguments with swift-argument-parser, which the package resolves only with the
// CommandLineTool trait (on by default; Package.swift). An app that turned the trait off never builds this target.
#if !CommandLineTool
    #error("The prelude tool needs the CommandLineTool trait (on by default): build without --disable-default-traits.")
#endif
