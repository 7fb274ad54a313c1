#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

enum StandardInput {
    /// The lines piped to the demo, or `nil` when standard input is a terminal or holds nothing but blank lines.
    static func pipedLines() -> [String]? {
        if isatty(STDIN_FILENO) != 0 { return nil }
        var lines: [String] = []
        while let line = readLine() { lines.append(line) }
        return lines.allSatisfy({ $0.trimmed.isEmpty }) ? nil : lines
    }
}
