/// One function-like body: a `func`, `init`, `deinit`, `subscript` or computed property (`var x: T {`).
struct FunctionSpan: Equatable, Sendable {
  /// Stable name within the file. The enclosing types and functions, dot-separated, then the name:
  /// `ReconciliationRun.execute`, `Readout.build`, `LedgerStorage.init`, `Money.description`. When two
  /// bodies in one file would share that name (overloads), both get their argument labels instead:
  /// `Readout.build(options:into:)`; if even those collide, the later ones get `#2`, `#3`, in file order.
  var name: String
  /// 1-based line of the declaring keyword (`func`, `init`, `var`…; attributes above it do not count).
  var line: Int
  /// Lines from `line` to the closing brace, both included.
  var lines: Int
}

enum FunctionScanner {
  private struct Scope {
    var name: String
    var labels: String
    var line: Int
    var isFunction: Bool
    var lines = 0
    /// The enclosing types and functions, dot-separated; set when the body opens.
    var prefix = ""
  }

  /// Keywords that end the search for a declaration's body: the declaration had none (a protocol
  /// requirement) and these start the next one.
  private static let stops: Set<String> = [
    "func", "var", "let", "init", "deinit", "subscript", "case", "struct", "class", "enum", "protocol",
    "extension", "actor", "typealias", "associatedtype", "import", "=", ";", "}",
  ]

  /// Words that may stand before `var` in a property declaration.
  private static let modifiers: Set<String> = [
    "public", "private", "fileprivate", "internal", "package", "open", "static", "class", "final",
    "override", "lazy", "weak", "unowned", "nonisolated", "dynamic", "mutating", "nonmutating", "required",
    "convenience", "optional", "unsafe", "set",
  ]

  static func spans(in tokens: [SourceToken]) -> [FunctionSpan] {
    var pending: [Int: Scope] = [:]  // index of a body's `{` → the declaration it opens
    var stack: [Scope?] = []  // one entry per open `{`; nil for braces that open no declaration
    var found: [Scope] = []
    for (index, token) in tokens.enumerated() {
      if token.text == "{" {
        if var scope = pending[index] {
          scope.prefix =
            stack.compactMap { $0.map { $0.prefix.isEmpty ? $0.name : $0.prefix + "." + $0.name } }
            .last ?? ""
          stack.append(scope)
        } else {
          stack.append(nil)
        }
      } else if token.text == "}" {
        if case .some(.some(var scope)) = stack.popLast(), scope.isFunction {
          scope.lines = token.line - scope.line + 1
          found.append(scope)
        }
      } else if let (body, scope) = declaration(at: index, in: tokens) {
        pending[body] = scope
      }
    }
    return disambiguated(found.sorted { $0.line < $1.line })
  }

  private static func disambiguated(_ found: [Scope]) -> [FunctionSpan] {
    func qualified(_ scope: Scope, _ name: String) -> String {
      scope.prefix.isEmpty ? name : scope.prefix + "." + name
    }
    let counts = Dictionary(found.map { (qualified($0, $0.name), 1) }, uniquingKeysWith: +)
    var seen: [String: Int] = [:]
    return found.map { scope in
      var name = qualified(scope, scope.name)
      if counts[name, default: 0] > 1 {
        name = qualified(scope, scope.labels)
        seen[name, default: 0] += 1
        if let count = seen[name], count > 1 { name += "#\(count)" }
      }
      return FunctionSpan(name: name, line: scope.line, lines: scope.lines)
    }
  }

  /// The declaration starting at `index`, if any, with the index of the `{` that opens its body.
  private static func declaration(at index: Int, in tokens: [SourceToken]) -> (Int, Scope)? {
    let keyword = tokens[index].text
    if index > 0 && tokens[index - 1].text == "." { return nil }  // `self.init(`, `.init(`
    let next = index + 1 < tokens.count ? tokens[index + 1].text : ""
    switch keyword {
    case "func":
      let (name, after) = functionName(from: index + 1, in: tokens)
      let scope = function(name, tokens[index], labels(name, from: after, in: tokens))
      return body(from: after, in: tokens).map { ($0, scope) }
    case "init", "deinit", "subscript":
      let scope = function(keyword, tokens[index], labels(keyword, from: index + 1, in: tokens))
      return body(from: index + 1, in: tokens).map { ($0, scope) }
    case "var":
      guard startsStatement(index, in: tokens), !next.isEmpty else { return nil }
      guard let brace = body(from: index + 2, in: tokens), tokens[brace].line == tokens[index].line else {
        return nil
      }
      return (brace, function(next, tokens[index], next))
    case "struct", "enum", "actor", "protocol", "extension", "class":
      if keyword == "class" && (modifiers.contains(next) || stops.contains(next)) { return nil }
      if index > 0 && [":", ",", "&"].contains(tokens[index - 1].text) { return nil }
      var name = next
      var cursor = index + 2
      while cursor + 1 < tokens.count && tokens[cursor].text == "." {
        name += "." + tokens[cursor + 1].text
        cursor += 2
      }
      return body(from: cursor, in: tokens).map {
        ($0, Scope(name: name, labels: name, line: tokens[index].line, isFunction: false))
      }
    default:
      return nil
    }
  }

  private static func function(_ name: String, _ token: SourceToken, _ labels: String) -> Scope {
    Scope(name: name, labels: labels, line: token.line, isFunction: true)
  }

  /// A function's name: an identifier, or an operator's characters (`==`, `<`) up to `(` or `<`.
  private static func functionName(from start: Int, in tokens: [SourceToken]) -> (String, Int) {
    guard start < tokens.count else { return ("", start) }
    if let first = tokens[start].text.unicodeScalars.first, first.properties.isXIDStart || first == "_" {
      return (tokens[start].text, start + 1)
    }
    var name = ""
    var cursor = start
    while cursor < tokens.count && tokens[cursor].text != "(" && (name.isEmpty || tokens[cursor].text != "<")
    {
      name += tokens[cursor].text
      cursor += 1
    }
    return (name, cursor)
  }

  /// `name(label:_:)` from the parameter clause after `start` (skipping generic parameters).
  private static func labels(_ name: String, from start: Int, in tokens: [SourceToken]) -> String {
    var cursor = start
    if cursor < tokens.count && tokens[cursor].text == "<" {
      var depth = 0
      repeat {
        if tokens[cursor].text == "<" { depth += 1 } else if tokens[cursor].text == ">" { depth -= 1 }
        cursor += 1
      } while cursor < tokens.count && depth > 0
    }
    if cursor < tokens.count && ["?", "!"].contains(tokens[cursor].text) { cursor += 1 }  // `init?(`
    guard cursor < tokens.count && tokens[cursor].text == "(" else { return name }
    var labels: [String] = []
    var depth = 0
    var expectLabel = true
    while cursor < tokens.count {
      let text = tokens[cursor].text
      if ["(", "[", "{"].contains(text) { depth += 1 } else if [")", "]", "}"].contains(text) { depth -= 1 }
      if depth == 0 { break }
      if depth == 1 && text == "," {
        expectLabel = true
      } else if depth == 1 && expectLabel && text != "(" {
        labels.append(text + ":")
        expectLabel = false
      }
      cursor += 1
    }
    return name + "(" + labels.joined() + ")"
  }

  /// The `{` opening the body of a declaration whose signature continues at `start`, skipping nested
  /// parentheses and brackets (default arguments may hold closures); nil if a stop word comes first.
  private static func body(from start: Int, in tokens: [SourceToken]) -> Int? {
    var depth = 0
    var cursor = start
    while cursor < tokens.count {
      let text = tokens[cursor].text
      if text == "(" || text == "[" {
        depth += 1
      } else if text == ")" || text == "]" {
        depth -= 1
      } else if depth == 0 {
        if text == "{" { return cursor }
        if stops.contains(text) && !(text == "init" && tokens[cursor - 1].text == ".") { return nil }
      }
      cursor += 1
    }
    return nil
  }

  /// Whether `var` at `index` begins a declaration: only modifiers and attributes precede it on its line.
  private static func startsStatement(_ index: Int, in tokens: [SourceToken]) -> Bool {
    let line = tokens[index].line
    var cursor = index - 1
    while cursor >= 0 && tokens[cursor].line == line {
      let text = tokens[cursor].text
      if ["{", "}", ";"].contains(text) { return true }
      if text == ")" {  // `private(set)`, `@available(…)`
        while cursor >= 0 && tokens[cursor].text != "(" { cursor -= 1 }
        cursor -= 1
        continue
      }
      if cursor > 0 && tokens[cursor - 1].text == "@" {
        cursor -= 2
        continue
      }
      guard modifiers.contains(text) else { return false }
      cursor -= 1
    }
    return true
  }
}
