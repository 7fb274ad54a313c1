// Fails when a public declaration has no `///` summary. `swift Tests/Docs/DocCommentCheck.swift SYMBOL_GRAPH_DIR`,
// from Tests/Docs/build.sh, on the symbol graphs of one module.
//
// Members the compiler writes (a raw-value enum's `init(rawValue:)`, `Hashable`'s `hashValue` and `hash(into:)`) and
// those inherited from another module's protocol (marked `::SYNTHESIZED::`) have no source to comment: skipped.
import Foundation

let directory = URL(fileURLWithPath: CommandLine.arguments[1])
let compilerWritten: Set<String> = ["init(rawValue:)", "rawValue", "hashValue", "hash(into:)"]
var symbols = 0
var missing: [String] = []
for url in try FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)
where url.pathExtension == "json" {
    let graph = try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any] ?? [:]
    for symbol in graph["symbols"] as? [[String: Any]] ?? [] {
        symbols += 1
        let path = symbol["pathComponents"] as? [String] ?? []
        let identifier = (symbol["identifier"] as? [String: Any])?["precise"] as? String ?? ""
        if symbol["docComment"] != nil || identifier.contains("::SYNTHESIZED::") { continue }
        if let name = path.last, compilerWritten.contains(name) { continue }
        let location = (symbol["location"] as? [String: Any]).map { location -> String in
            let file = (location["uri"] as? String ?? "").components(separatedBy: "/Sources/").last ?? ""
            let line = ((location["position"] as? [String: Any])?["line"] as? Int).map { $0 + 1 } ?? 0
            return " (Sources/\(file):\(line))"
        } ?? ""
        missing.append(path.joined(separator: ".") + location)
    }
}
if symbols == 0 {
    print("error: no symbols in \(directory.path): was the symbol graph emitted?")
    exit(1)
} else if missing.isEmpty {
    print("all \(symbols) public symbols have a summary")
} else {
    for line in missing.sorted() { print("error: no /// summary: \(line)") }
    exit(1)
}
