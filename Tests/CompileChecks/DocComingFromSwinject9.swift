// swift-version: 6
// expect: clean
// ComingFromSwinject.md's Forge part of "When everything is registered": the logger and its handlers first, then that
// part verbatim.
import Forge

nonisolated protocol LogHandler {}
nonisolated struct ConsoleLogHandler: LogHandler {}
nonisolated final class Logger {
    private var handlers: [LogHandler] = []
    func add(_ handler: LogHandler) { handlers.append(handler) }
}

// The sample of Sources/Forge/Forge.docc/Articles/ComingFromSwinject.md, from here to the end.
// Forge
extension Container {
    static let consoleLogHandler = Factory<LogHandler> { ConsoleLogHandler() }
    static let logger = Factory(scope: .singleton) { Logger() }
        .afterMake { $0.add(consoleLogHandler()) }   // before anyone gets the logger
}

// At launch, to make the logger now rather than at its first use:
Container.startPrewarming(Container.logger)
