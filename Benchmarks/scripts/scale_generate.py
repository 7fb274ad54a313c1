#!/usr/bin/env python3
"""Writes the generated package behind `Benchmarks/scale.sh`: Forge, Swinject and swift-dependencies at app scale.

    scale_generate.py OUT_DIR FORGE_PATH

OUT_DIR gets a complete Swift package (it lives under Benchmarks/.build, which git ignores):

- `<Lib>Flat<N>`, N = 1,000 and 10,000: N service types and one declaration each (a Forge singleton `Factory`, a
  Swinject `.container` registration, a swift-dependencies `DependencyKey`), with `declareAll` and `resolveAll`.
  Above 1,000, the types and declarations are split into modules of 1,000, `<Lib>Flat<N>Part<k>`, as a large app
  splits them into feature modules, and `<Lib>Flat<N>` only calls theirs: in one module of 10,000, the optimizer's
  work grows faster than the module (a release build of ForgeFlat10000 did not finish in 19 minutes).
- `<Lib>Graph`: a 1,000-factory launch graph. Ten layers of 100 types. The bottom layer's are singletons; every other
  type is made anew on each resolution (Forge's unique scope, Swinject's `.transient`, a swift-dependencies client
  whose `make` builds it) from 3 to 5 dependencies: one or two from the layer below (unique, or a singleton for the
  layer above the bottom), the rest from the bottom layer. `resolveRoots` resolves the 100 types of the top layer.
- `<Lib>Calls1000`: 1,000 call sites, one resolution each, of the factories of `<Lib>Flat1000`, in another module,
  as an app's features call its container; `DirectCalls1000` constructs the same 1,000 types instead: the floor.
- `DirectGraph`: the same graph built without a container, the floor of every library's: bottom-layer singletons
  are `static let`s, every other type is built by a function that calls its dependencies'.
- `ScaleKit`: the clock, the sink, and the malloc counters, read from `libMallocCounter.so` when it is preloaded.
- `MallocCounter`: the counting interposer, a dynamic library that only the counting pass preloads.
- `scale-forge`, `scale-swinject`, `scale-dependencies`: one executable per library, so that each cold process
  holds one library only, with the 1,000-factory modules and the graph; `scale-forge-10000` and the others: the
  10,000-factory modules only, from the same main.swift with `LARGE` defined. A binary holds one size, because what
  a library does on first use can grow with what the binary holds (swift-dependencies' first read of a key does).
  `scale-direct`: the graph built directly.
"""

import os
import random
import sys

LAYERS = 10
WIDTH = 100
SIZES = tuple(int(size) for size in os.environ.get("SCALE_SIZES", "1000 10000").split())
assert 1000 in SIZES and set(SIZES) <= {1000, 10000}, "SCALE_SIZES: 1000, or 1000 10000 (the mains know these two)"
LARGE_SIZES = tuple(size for size in SIZES if size != 1000)
LIBRARY_MODULE = {"Forge": "Forge", "Swinject": "Swinject", "Deps": "Dependencies"}
PART = 1000  # types per generated module; larger sizes are split into parts of this many
CHUNK = 50  # statements per generated function: in functions of 250 inlined resolutions, the optimizer crawled (SimplifyCFG, 18 minutes for ForgeFlat10000 and counting)


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)


def call_arguments(signature):
    """The arguments that pass a function's parameters on: `_ container: Container` gives `container`."""
    return ", ".join(a.split(":")[0].split()[-1] for a in signature.split(", ") if a)


def chunked(lines, name, signature=""):
    """`lines` split into public functions `name0`, `name1`, ... and one `name` that calls them all."""
    out, calls = [], []
    for start in range(0, len(lines), CHUNK):
        index = start // CHUNK
        arguments = call_arguments(signature)
        calls.append(f"    {name}{index}({arguments})")
        out.append(f"@inline(never) public func {name}{index}({signature}) {{")
        out.extend(f"    {line}" for line in lines[start:start + CHUNK])
        out.append("}\n")
    out.append(f"public func {name}({signature}) {{")
    out.extend(calls)
    out.append("}\n")
    return "\n".join(out)


def graph():
    """For each layer but the bottom, each node's dependencies: (layer, index) pairs."""
    rng = random.Random(2026)
    deps = {}
    for layer in range(LAYERS - 1):
        for j in range(WIDTH):
            count = rng.randint(3, 5)
            below = [(layer + 1, j)]  # index j of the layer below: every node is reached
            if rng.random() < 0.5:
                below.append((layer + 1, (j + 1 + rng.randrange(WIDTH - 1)) % WIDTH))
            leaves = rng.sample(range(WIDTH), count - len(below))
            deps[(layer, j)] = below + [(LAYERS - 1, k) for k in leaves if (LAYERS - 1, k) not in below]
    return deps


def resolutions(deps):
    """How many resolutions `resolveRoots` makes: unique nodes expand, bottom-layer nodes are one hit each."""
    memo = {}

    def count(node):
        if node[0] == LAYERS - 1:
            return 1
        if node not in memo:
            memo[node] = 1 + sum(count(d) for d in deps[node])
        return memo[node]

    return sum(count((0, j)) for j in range(WIDTH))


def node_type(node):
    return f"G{node[0]}_{node[1]}"


def node_name(node):
    return f"g{node[0]}_{node[1]}"


def graph_classes(deps):
    lines = []
    for layer in range(LAYERS):
        for j in range(WIDTH):
            node = (layer, j)
            if layer == LAYERS - 1:
                lines.append(f"public final class {node_type(node)}: Sendable {{ public init() {{}} }}")
                continue
            fields = " ".join(f"let d{i}: {node_type(d)};" for i, d in enumerate(deps[node]))
            params = ", ".join(f"_ d{i}: {node_type(d)}" for i, d in enumerate(deps[node]))
            sets = " ".join(f"self.d{i} = d{i};" for i in range(len(deps[node])))
            lines.append(f"public final class {node_type(node)}: Sendable {{ {fields} "
                         f"public init({params}) {{ {sets} }} }}")
    return "\n".join(lines) + "\n"


# MARK: Forge

def parts(n):
    """The index ranges of the modules that hold n types: one module up to PART, parts of PART above."""
    return [range(n)] if n <= PART else [range(start, start + PART) for start in range(0, n, PART)]


def umbrella(lib, n, signature="", functions=("declareAll", "resolveAll")):
    """`<Lib>Flat<n>` above PART: imports its parts and calls each part's functions in turn."""
    names = [f"{lib}Flat{n}Part{k}" for k in range(len(parts(n)))]
    arguments = call_arguments(signature)
    lines = [f"import {name}" for name in names]
    lines += [f"import {LIBRARY_MODULE[lib]}", "import ScaleKit", "", f"// {n:,} factories, declared in {len(names)} modules of {PART:,}.", ""]
    for function in functions:
        lines.append(f"public func {function}({signature}) {{")
        lines += [f"    {name}.{function}({arguments})" for name in names]
        lines.append("}\n")
    return "\n".join(lines)


def forge_flat(indices):
    lines = ["import Forge", "import ScaleKit", ""]
    lines += [f"public final class S{i}: Sendable {{ public init() {{}} }}" for i in indices]
    lines += ["", "extension Container {"]
    lines += [f"    public static let s{i} = Factory<S{i}>(scope: .singleton) {{ S{i}() }}" for i in indices]
    lines += ["}", ""]
    body = chunked([f"keep(Container.s{i})" for i in indices], "declareAll")
    body += chunked([f"sink(Container.s{i}())" for i in indices], "resolveAll")
    return "\n".join(lines) + body


def forge_graph(deps):
    lines = ["import Forge", "import ScaleKit", "", graph_classes(deps), "extension Container {"]
    for layer in range(LAYERS):
        for j in range(WIDTH):
            node = (layer, j)
            if layer == LAYERS - 1:
                lines.append(f"    public static let {node_name(node)} = Factory<{node_type(node)}>(scope: .singleton) "
                             f"{{ {node_type(node)}() }}")
            else:
                args = ", ".join(f"Container.{node_name(d)}()" for d in deps[node])
                lines.append(f"    public static let {node_name(node)} = Factory<{node_type(node)}> "
                             f"{{ {node_type(node)}({args}) }}")
    lines += ["}", ""]
    body = chunked([f"sink(Container.{node_name((0, j))}())" for j in range(WIDTH)], "resolveRoots")
    return "\n".join(lines) + body


def forge_calls(n):
    lines = ["import Forge", "import ForgeFlat1000", "import ScaleKit", ""]
    return "\n".join(lines) + chunked([f"sink(Container.s{i}())" for i in range(n)], "callAll")


def direct_calls(n):
    lines = ["import ForgeFlat1000", "import ScaleKit", ""]
    return "\n".join(lines) + chunked([f"sink(S{i}())" for i in range(n)], "callAll")


# MARK: Swinject

def swinject_flat(indices):
    lines = ["import Swinject", "import ScaleKit", ""]
    lines += [f"public final class S{i}: Sendable {{ public init() {{}} }}" for i in indices]
    lines.append("")
    body = chunked([f"container.register(S{i}.self) {{ _ in S{i}() }}.inObjectScope(.container)" for i in indices],
                   "declareAll", signature="_ container: Container")
    body += chunked([f"sink(container.resolve(S{i}.self)!)" for i in indices],
                    "resolveAll", signature="_ container: Container")
    return "\n".join(lines) + body


def swinject_graph(deps):
    lines = ["import Swinject", "import ScaleKit", "", graph_classes(deps)]
    registrations = []
    for layer in range(LAYERS):
        for j in range(WIDTH):
            node = (layer, j)
            if layer == LAYERS - 1:
                registrations.append(f"container.register({node_type(node)}.self) {{ _ in {node_type(node)}() }}"
                                     ".inObjectScope(.container)")
            else:
                args = ", ".join(f"r.resolve({node_type(d)}.self)!" for d in deps[node])
                registrations.append(f"container.register({node_type(node)}.self) {{ r in "
                                     f"{node_type(node)}({args}) }}")
    body = chunked(registrations, "registerGraph", signature="_ container: Container")
    body += chunked([f"sink(container.resolve({node_type((0, j))}.self)!)" for j in range(WIDTH)],
                    "resolveRoots", signature="_ container: Container")
    return "\n".join(lines) + body


def swinject_calls(n):
    lines = ["import Swinject", "import SwinjectFlat1000", "import ScaleKit", ""]
    return "\n".join(lines) + chunked([f"sink(container.resolve(S{i}.self)!)" for i in range(n)], "callAll",
                                      signature="_ container: Container")


# MARK: swift-dependencies

def deps_key(type_name, name, value):
    return (f"public enum {type_name}Key: DependencyKey {{ public static let liveValue = {value} }}\n"
            f"extension DependencyValues {{ public var {name}: {type_name}Key.Value {{ "
            f"get {{ self[{type_name}Key.self] }} set {{ self[{type_name}Key.self] = newValue }} }} }}")


def deps_flat(indices):
    lines = ["import Dependencies", "import ScaleKit", ""]
    lines += [f"public final class S{i}: Sendable {{ public init() {{}} }}" for i in indices]
    lines += [deps_key(f"S{i}", f"s{i}", f"S{i}()") for i in indices]
    lines.append("")
    # Nothing to declare at run time: a key is a type. Reading one caches its live value.
    body = chunked([f"sink(DependencyValues._current.s{i})" for i in indices], "resolveAll")
    return "\n".join(lines) + body


def deps_graph(deps):
    lines = ["import Dependencies", "import ScaleKit", "", graph_classes(deps),
             "public struct Maker<T>: Sendable { public let make: @Sendable () -> T }", ""]
    for layer in range(LAYERS):
        for j in range(WIDTH):
            node = (layer, j)
            if layer == LAYERS - 1:
                lines.append(deps_key(node_type(node), node_name(node), f"{node_type(node)}()"))
            else:
                args = ", ".join(
                    f"values.{node_name(d)}" if d[0] == LAYERS - 1 else f"values.{node_name(d)}.make()"
                    for d in deps[node])
                value = (f"Maker<{node_type(node)}> {{ let values = DependencyValues._current; "
                         f"return {node_type(node)}({args}) }}")
                lines.append(deps_key(node_type(node), node_name(node), value))
    lines.append("")
    body = chunked([f"sink(DependencyValues._current.{node_name((0, j))}.make())" for j in range(WIDTH)],
                   "resolveRoots")
    return "\n".join(lines) + body


# MARK: Direct construction

def direct_graph(deps):
    """The graph without a container: the floor. Bottom-layer singletons are `static let`s (made on first use, as a
    Forge singleton is), and every other type is built by a function of its own that calls its dependencies'."""
    lines = ["import ScaleKit", "", graph_classes(deps), "enum Singletons {"]
    lines += [f"    static let {node_name((LAYERS - 1, j))} = {node_type((LAYERS - 1, j))}()" for j in range(WIDTH)]
    lines += ["}", ""]
    for layer in range(LAYERS - 1):
        for j in range(WIDTH):
            node = (layer, j)
            args = ", ".join(f"Singletons.{node_name(d)}" if d[0] == LAYERS - 1 else f"{node_name(d)}()"
                             for d in deps[node])
            lines.append(f"func {node_name(node)}() -> {node_type(node)} {{ {node_type(node)}({args}) }}")
    lines.append("")
    body = chunked([f"sink({node_name((0, j))}())" for j in range(WIDTH)], "resolveRoots")
    return "\n".join(lines) + body


def deps_calls(n):
    lines = ["import Dependencies", "import DepsFlat1000", "import ScaleKit", ""]
    return "\n".join(lines) + chunked([f"sink(DependencyValues._current.s{i})" for i in range(n)], "callAll")


# MARK: The package

def package(forge_path):
    def flat(lib, dep):
        targets = []
        for n in SIZES:
            if len(parts(n)) == 1:
                targets.append(f'        .target(name: "{lib}Flat{n}", dependencies: ["ScaleKit", {dep}]),')
                continue
            names = [f"{lib}Flat{n}Part{k}" for k in range(len(parts(n)))]
            targets += [f'        .target(name: "{name}", dependencies: ["ScaleKit", {dep}]),' for name in names]
            targets.append(f'        .target(name: "{lib}Flat{n}", dependencies: ["ScaleKit", '
                           + "".join(f'"{name}", ' for name in names) + f"{dep}]),")
        return targets
    def executables(name, lib, dep):
        targets = [f'        .executableTarget(name: "{name}", dependencies: ["ScaleKit", "{lib}Flat1000", '
                   f'"{lib}Graph", {dep}]),']
        targets += [f'        .executableTarget(name: "{name}{n}", dependencies: ["ScaleKit", "{lib}Flat{n}", {dep}], '
                    'swiftSettings: [.define("LARGE")]),' for n in LARGE_SIZES]
        return targets
    forge = '.product(name: "Forge", package: "Forge")'
    swinject = '.product(name: "Swinject", package: "Swinject")'
    dependencies = '.product(name: "Dependencies", package: "swift-dependencies")'
    targets = [
        '        .target(name: "ScaleKit"),',
        '        .target(name: "MallocCounter"),',
        *flat("Forge", forge), *flat("Swinject", swinject), *flat("Deps", dependencies),
        f'        .target(name: "ForgeGraph", dependencies: ["ScaleKit", {forge}]),',
        f'        .target(name: "SwinjectGraph", dependencies: ["ScaleKit", {swinject}]),',
        f'        .target(name: "DepsGraph", dependencies: ["ScaleKit", {dependencies}]),',
        '        .target(name: "DirectGraph", dependencies: ["ScaleKit"]),',
        f'        .target(name: "ForgeCalls1000", dependencies: ["ScaleKit", "ForgeFlat1000", {forge}]),',
        '        .target(name: "DirectCalls1000", dependencies: ["ScaleKit", "ForgeFlat1000"]),',
        f'        .target(name: "SwinjectCalls1000", dependencies: ["ScaleKit", "SwinjectFlat1000", {swinject}]),',
        f'        .target(name: "DepsCalls1000", dependencies: ["ScaleKit", "DepsFlat1000", {dependencies}]),',
        *executables("ScaleForge", "Forge", forge),
        *executables("ScaleSwinject", "Swinject", swinject),
        *executables("ScaleDependencies", "Deps", dependencies),
        '        .executableTarget(name: "ScaleDirect", dependencies: ["ScaleKit", "DirectGraph"]),',
    ]
    products = [f'        .executable(name: "scale-{lib}{suffix}", targets: ["{name}{n}"]),'
                for lib, name in (("forge", "ScaleForge"), ("swinject", "ScaleSwinject"),
                                  ("dependencies", "ScaleDependencies"))
                for n, suffix in [("", "")] + [(n, f"-{n}") for n in LARGE_SIZES]]
    products.append('        .executable(name: "scale-direct", targets: ["ScaleDirect"]),')
    return f"""// swift-tools-version:6.0
// Generated by Benchmarks/scripts/scale_generate.py; do not edit.
import PackageDescription

let package = Package(
    name: "ForgeScale",
    platforms: [.macOS(.v15), .iOS(.v18)],
    products: [
{chr(10).join(products)}
        .library(name: "MallocCounter", type: .dynamic, targets: ["MallocCounter"]),
    ],
    dependencies: [
        .package(name: "Forge", path: "{forge_path}"),
        .package(url: "https://github.com/Swinject/Swinject", exact: "2.10.0"),
        .package(url: "https://github.com/pointfreeco/swift-dependencies", exact: "1.17.1"),
    ],
    targets: [
{chr(10).join(targets)}
    ],
    swiftLanguageModes: [.v6]
)
"""


def main():
    out, forge_path = sys.argv[1], sys.argv[2]
    here = os.path.dirname(os.path.abspath(__file__))
    deps = graph()
    write(os.path.join(out, "Package.swift"), package(forge_path))
    with open(os.path.join(here, "scale", "ScaleKit.swift")) as f:
        write(os.path.join(out, "Sources/ScaleKit/ScaleKit.swift"), f.read())
    with open(os.path.join(here, "scale", "malloc_counter.c")) as f:
        write(os.path.join(out, "Sources/MallocCounter/malloc_counter.c"), f.read())
    write(os.path.join(out, "Sources/MallocCounter/include/MallocCounter.h"),
          "// The counters are read with dlsym, by name: see ScaleKit.\n")
    with open(os.path.join(here, "scale", "main-direct.swift")) as f:
        write(os.path.join(out, "Sources/ScaleDirect/main.swift"), f.read())
    for lib, main_name in (("forge", "ScaleForge"), ("swinject", "ScaleSwinject"),
                           ("dependencies", "ScaleDependencies")):
        with open(os.path.join(here, "scale", f"main-{lib}.swift")) as f:
            text = f.read().replace("@RESOLUTIONS@", str(resolutions(deps)))
        for n in ("",) + LARGE_SIZES:  # the same main, with `LARGE` defined for the 10,000-factory executable
            write(os.path.join(out, f"Sources/{main_name}{n}/main.swift"), text)
    for n in SIZES:
        sections = parts(n)
        for lib, generate in (("Forge", forge_flat), ("Swinject", swinject_flat), ("Deps", deps_flat)):
            if len(sections) == 1:
                write(os.path.join(out, f"Sources/{lib}Flat{n}/Flat.swift"), generate(sections[0]))
                continue
            for k, indices in enumerate(sections):
                write(os.path.join(out, f"Sources/{lib}Flat{n}Part{k}/Flat.swift"), generate(indices))
            signature = "_ container: Container" if lib == "Swinject" else ""
            functions = ("resolveAll",) if lib == "Deps" else ("declareAll", "resolveAll")
            write(os.path.join(out, f"Sources/{lib}Flat{n}/Flat.swift"), umbrella(lib, n, signature, functions))
    write(os.path.join(out, "Sources/ForgeGraph/Graph.swift"), forge_graph(deps))
    write(os.path.join(out, "Sources/SwinjectGraph/Graph.swift"), swinject_graph(deps))
    write(os.path.join(out, "Sources/DepsGraph/Graph.swift"), deps_graph(deps))
    write(os.path.join(out, "Sources/DirectGraph/Graph.swift"), direct_graph(deps))
    write(os.path.join(out, "Sources/ForgeCalls1000/Calls.swift"), forge_calls(1000))
    write(os.path.join(out, "Sources/DirectCalls1000/Calls.swift"), direct_calls(1000))
    write(os.path.join(out, "Sources/SwinjectCalls1000/Calls.swift"), swinject_calls(1000))
    write(os.path.join(out, "Sources/DepsCalls1000/Calls.swift"), deps_calls(1000))


if __name__ == "__main__":
    main()
