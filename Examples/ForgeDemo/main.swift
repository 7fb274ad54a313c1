// forge-demo: a tiny shop CLI whose services live in Forge scopes.
//
//     swift run forge-demo                                  # plays the scripted session
//     printf 'login carol\nadd tea\ncart\n' | swift run forge-demo
//     swift run forge-demo --offline                        # the API client queues requests instead

let app = DemoApp()
app.play(StandardInput.pipedLines() ?? Script.lines) { print($0) }
