// forge-demo: a tiny shop CLI whose services live in Forge scopes.
//
//     swift run forge-demo                                  # plays the scripted session
//     printf 'login carol\nadd tea\ncart\n' | swift run forge-demo
//     swift run forge-demo --offline                        # the API client queues requests instead
//     swift run forge-demo --graph                          # prints a session's dependency graph (Mermaid)
//     swift run forge-demo --trace                          # traces every resolution to standard error
//     swift run forge-demo --no-prewarm                     # the first `price` waits for the catalog to load

import Forge

if CommandLine.arguments.dropFirst().contains("--trace") {
    Container.Diagnostics.trace = Container.Diagnostics.printTree
}
if CommandLine.arguments.dropFirst().contains("--graph") {
    print(DemoApp.sessionGraph().mermaid, terminator: "")
} else {
    let app = await DemoApp.start()
    app.play(StandardInput.pipedLines() ?? Script.lines) { print($0) }
}
