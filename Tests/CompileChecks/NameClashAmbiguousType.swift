// swift-version: 6
// expect-diagnostic: 'UnimplementedEndpoint' is ambiguous for type lookup in this context
// A module that imports an app declaring its own UnimplementedEndpoint, and Forge, as the app's test target does:
// the name is ambiguous where it is used, as the README's "Name clashes" says.
// other-module: App Tests/CompileChecks/Modules/NameClashApp.swift
import App
import Forge

func isUnimplemented(_ error: any Error) -> Bool { error is UnimplementedEndpoint }
