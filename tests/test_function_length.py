"""No function outside the tests is over 60 lines (issue 72: functions short and single-purpose).

Every .cpp, .h, .cu and .cuh file under src/, kernels/, problems/ and io/ is read; a function's
length runs from the line of its opening brace to the line of its closing brace, both counted,
and one over the limit is named as 'path:line name N lines' (the line of its opening brace), to
be split into well-named pieces rather than squeezed.

How the functions are found, without a compiler: comments, string and character literals (raw
strings too) and preprocessor lines are blanked first, keeping every newline, so that no brace or
semicolon in them counts. Then the braces are walked with a stack. A brace met outside any
function is classified by what precedes it since the last ';', '{' or '}' (its head):
namespace, extern "C", class, struct, union and enum braces are scopes whose insides are walked
on; a head ending in a parameter list (and qualifiers, a trailing return type, or a constructor's
initialiser list) opens a function, and everything inside it, lambdas and local classes
included, belongs to that function; anything else is an initialiser (an array, a brace-
initialised constant or member), skipped whole. Both branches of an #if are read, so they must
balance their braces, as the code's do.
Run: python3 tests/test_function_length.py (exit 1 and the functions over the limit).
"""
import pathlib
import re
import tempfile
import unittest

ROOT = pathlib.Path(__file__).resolve().parent.parent
FOLDERS = ("src", "kernels", "problems", "io")
SUFFIXES = (".cpp", ".h", ".cu", ".cuh")
MOST_LINES = 60

RAW_PREFIX = re.compile(r'(?:u8|u|U|L)?R"([^()\\\s]{0,16})\(')


def blank(text):
    """`text` with comments, literals' insides and preprocessor lines made spaces, newlines kept.

    String and character literals keep their quotes ("" and '') so that `extern "C"` still reads
    as one.
    """
    out = []
    i, n = 0, len(text)
    line_start = True  # only blanks since the last newline: a '#' here starts a directive

    def spaces(chunk):
        return re.sub(r"[^\n]", " ", chunk)

    while i < n:
        c = text[i]
        if c == "\n":
            out.append(c)
            line_start = True
            i += 1
            continue
        if line_start and c == "#":
            end = i
            while end < n and text[end] != "\n":  # a directive runs on over escaped newlines
                end += 2 if text[end] == "\\" and end + 1 < n else 1
            out.append(spaces(text[i:end]))
            i = end
            continue
        if not c.isspace():
            line_start = False
        if text.startswith("//", i):
            end = text.find("\n", i)
            end = n if end < 0 else end
            out.append(spaces(text[i:end]))
            i = end
        elif text.startswith("/*", i):
            end = text.find("*/", i + 2)
            end = n if end < 0 else end + 2
            out.append(spaces(text[i:end]))
            i = end
        elif (raw := RAW_PREFIX.match(text, i)) and not (i > 0 and is_word(text[i - 1])):
            close = text.find(")" + raw.group(1) + '"', raw.end())
            end = n if close < 0 else close + len(raw.group(1)) + 2
            out.append('"' + spaces(text[i + 1:end - 1]) + '"')
            i = end
        elif c == '"' or (c == "'" and not is_digit_separator(text, i)):
            end = i + 1
            while end < n and text[end] != c and text[end] != "\n":
                end += 2 if text[end] == "\\" else 1
            end = min(end + 1, n)
            out.append(c + spaces(text[i + 1:end - 1]) + c)
            i = end
        else:
            out.append(c)
            i += 1
    return "".join(out)


def is_word(c):
    return c.isalnum() or c == "_"


def is_digit_separator(text, i):
    """Whether the ' at `i` splits the digits of a number (1'000'000), not opens a character."""
    start = i
    while start > 0 and (is_word(text[start - 1]) or text[start - 1] == "."):
        start -= 1
    return start < i and text[start].isdigit()


def collapse_parentheses(head):
    """`head` with each outermost (...) group emptied to '()'."""
    out, depth = [], 0
    for c in head:
        if c == "(":
            if depth == 0:
                out.append("(")
            depth += 1
        elif c == ")":
            depth = max(depth - 1, 0)
            if depth == 0:
                out.append(")")
        elif depth == 0:
            out.append(c)
    return "".join(out)


def strip_template_prefix(head):
    """`head` less a leading 'template <...>' (nested angle brackets balanced)."""
    while (start := re.match(r"\s*template\s*<", head)):
        depth, i = 1, start.end()
        while i < len(head) and depth:
            depth += {"<": 1, ">": -1}.get(head[i], 0)
            i += 1
        head = head[i:]
    return head


ACCESS = re.compile(r"^\s*(?:public|private|protected)\s*:(?!:)")
TYPE = re.compile(r"^\s*(?:typedef\s+)?(?:(?:\[\[.*?\]\]|alignas\(\))\s*)*"
                  r"(?:class|struct|union|enum)\b")
NAMESPACE = re.compile(r"^\s*(?:inline\s+)?namespace\b")
HANDLER = re.compile(r"^\s*catch\s*\(\)\s*$")  # of a function-try-block
LINKAGE = re.compile(r'^\s*extern\s*""\s*$')
QUALIFIERS = r"(?:\s*(?:const|volatile|noexcept|override|final|mutable|throw|&&|&)\s*(?:\(\))?)*"
# A parameter list and its qualifiers ending the head, perhaps with a trailing return type.
FUNCTION = re.compile(r"\(\)" + QUALIFIERS + r"\s*(?:->.*)?$", re.S)
# A constructor: its parameter list, then an initialiser list whose last member is complete.
CONSTRUCTOR = re.compile(r"\(\)" + QUALIFIERS + r"\s*:(?!:).*[)}]\s*$", re.S)
NAME = re.compile(r"((?:[\w~]+\s*::\s*)*(?:operator\s*(?:\(\)|[^\w\s(]+|\w+)|~?\w+))\s*"
                  r"(?:<[^()]*>)?\s*$")


def classify(head):
    """'scope', 'function' (with its name), 'handler' or 'initialiser' for a brace after `head`.

    A handler is a catch clause of a function-try-block, part of the function before it.
    """
    while ACCESS.match(head):
        head = ACCESS.sub("", head, count=1)
    head = strip_template_prefix(collapse_parentheses(head))
    if HANDLER.match(head):
        return "handler", None
    head = re.sub(r"\btry\b", " ", head)  # a function-try-block's body is the function's
    if NAMESPACE.match(head) or LINKAGE.match(head) or TYPE.match(head):
        return "scope", None
    match = CONSTRUCTOR.search(head) or FUNCTION.search(head)
    if not match:
        return "initialiser", None
    before = head[:match.start()]
    if (lambda_ := re.search(r"(\w+)\s*=\s*\[[^\]]*\]\s*$", before)):
        return "function", lambda_.group(1)  # a lambda held by a name at namespace scope
    name = NAME.search(before)
    return "function", (name.group(1).replace(" ", "") if name else "(unnamed)")


def functions_in(text):
    """(line of the opening brace, name, lines) for each function of a source's text."""
    code = blank(text)
    found = []
    stack = []  # per open brace: (kind, name, line it opened on)
    head_start = 0  # where the head of the next brace at namespace or class scope starts
    line = 1
    in_function = 0  # open braces from the outermost function's own inwards
    for i, c in enumerate(code):
        if c == "\n":
            line += 1
        elif in_function:
            if c == "{":
                in_function += 1
            elif c == "}":
                in_function -= 1
                if in_function == 0:
                    _, name, opened = stack.pop()
                    found.append((opened, name, line - opened + 1))
                    head_start = i + 1
        elif stack and stack[-1][0] == "initialiser":
            if c == "{":
                stack.append(("initialiser", None, line))
            elif c == "}":
                stack.pop()
                # The head goes on past an initialiser: a constructor's list, a declaration.
        elif c == "{":
            kind, name = classify(code[head_start:i])
            if kind == "handler" and found:
                opened, name, _ = found.pop()  # the function goes on to its last handler
                kind, line_opened = "function", opened
            else:
                line_opened = line
            stack.append((kind, name, line_opened))
            if kind == "function":
                in_function = 1
            elif kind == "scope":
                head_start = i + 1
        elif c == "}":
            if stack:
                stack.pop()
            head_start = i + 1
        elif c == ";":
            head_start = i + 1
    return found


def source_files(root):
    for folder in FOLDERS:
        for path in sorted((root / folder).rglob("*")):
            if path.is_file() and path.suffix in SUFFIXES:
                yield path


def functions_over_the_limit(root):
    """'path:line name N lines' for each function of a source under `root` over MOST_LINES."""
    return [f"{path.relative_to(root)}:{line} {name} {count} lines"
            for path in source_files(root)
            for line, name, count in functions_in(path.read_text(errors="replace"))
            if count > MOST_LINES]


def body(lines):
    """`lines` statements; with the lines of its two braces, a function of lines + 2."""
    return "".join(f"    x += {k};\n" for k in range(lines))


class FunctionLengthTest(unittest.TestCase):
    def test_every_folder_holds_functions(self):
        # A folder moved away, or a checker that finds nothing, would pass for nothing.
        for folder in FOLDERS:
            found = [f for path in (ROOT / folder).rglob("*.cpp")
                     for f in functions_in(path.read_text())]
            self.assertGreater(len(found), 5, f"no functions found under {folder}/")

    def test_no_function_is_over_the_limit(self):
        over = functions_over_the_limit(ROOT)
        self.assertEqual(over, [], f"over {MOST_LINES} lines (split each by purpose): {over}")

    def test_a_function_one_line_over_is_named_and_one_at_the_limit_is_not(self):
        over, at = MOST_LINES - 1, MOST_LINES - 2  # statements, less the braces' two lines
        with tempfile.TemporaryDirectory() as scratch:
            root = pathlib.Path(scratch)
            (root / "src" / "deep").mkdir(parents=True)
            (root / "kernels").mkdir()
            (root / "src" / "deep" / "long.cu").write_text(
                "#include <x>\nnamespace sph {\nvoid long_one(int x) {\n" + body(over) + "}\n"
                "void at_the_limit(int x) {\n" + body(at) + "}\n}  // namespace sph\n")
            (root / "kernels" / "scopes.h").write_text(
                "namespace sph {\n" + body(over) + "}\n"
                "class Wide {\n" + body(over) + "};\n"
                "struct Tall : Base<decltype(f())> {\n" + body(over) + "};\n"
                'extern "C" {\n' + body(over) + "}\n"
                "const int kTable[] = {\n" + body(over) + "};\n"
                "enum class E : int {\n" + body(over) + "};\n")
            (root / "kernels" / "notes.txt").write_text("void f() {\n" + body(100) + "}\n")
            self.assertEqual(functions_over_the_limit(root),
                             ["src/deep/long.cu:3 long_one 61 lines"])

    def test_members_constructors_and_lambdas(self):
        text = ("struct S {\n"
                "    S(int a) : a_(a), b_{a, 2}, c_{} {\n" + body(59) + "    }\n"
                "    int a_{0};\n"
                "    float operator()(int k) const noexcept {\n" + body(59) + "    }\n"
                "  private:\n"
                "    auto get() const -> std::vector<int> {\n" + body(3) + "    }\n"
                "};\n"
                "template <class T, class U = std::pair<int, int>>\n"
                "SPH_HD inline void S::run(T&& t) {\n"
                "    auto visit = [&](int k) {\n" + body(30) + "    };\n"
                "    for (int k = 0; k < 3; ++k) { visit(k); }\n"
                "}\n")
        self.assertEqual([(name, lines) for _, name, lines in functions_in(text)],
                         [("S", 61), ("operator()", 61), ("get", 5), ("S::run", 35)])

    def test_comments_literals_and_directives_hold_no_braces(self):
        text = ("void f() {\n"
                '    const char* s = "}{\\"}";\n'
                "    char c = '}'; char d = '\\''; int big = 1'000'000;\n"
                '    const char* raw = R"css(a{b} ) "}" )css";\n'
                "    // } a comment\n"
                "    /* } and\n       { another */\n"
                "#define BRACE }\n"
                "}\n"
                "int g() { return 0; }\n"
                "int h(int x) try {\n" + body(3) + "} catch (const E& e) {\n" + body(2) + "}\n")
        self.assertEqual(functions_in(text), [(1, "f", 9), (10, "g", 1), (11, "h", 8)])


if __name__ == "__main__":
    unittest.main()
