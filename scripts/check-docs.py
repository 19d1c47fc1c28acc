#!/usr/bin/env python3
"""Run every shell example in README.md and docs/*.md against a real server (docs/docs-check.md).

    scripts/check-docs.py PRELUDE_BINARY [FILE.md ...]

For each markdown file with shell blocks (```sh, ```bash, ```shell, ```console: its `$ ` lines), in order:
a fresh server of PRELUDE_BINARY (port 0, a temporary database, a bootstrap admin token), then the file's blocks in
ONE bash session (`set -Eeuo pipefail`, so a failing command fails its block), in a temporary working directory that
looks like the repository root (config/ copied, scripts/, deploy/, migrations/ and Fuzz/ linked), each block with a
time limit; then the server is stopped. The session has

  PRELUDE_URL       the server's base URL (http://127.0.0.1:PORT)
  PRELUDE_TOKEN     its bootstrap admin token (scope write)
  PRELUDE_DATABASE  its database, so `prelude token create` and friends act on the server's data
  ALICE, BOB        when the file uses them: write tokens named alice and bob, bob with `approve`
                    (docs/change-management.md's worked example)
  prelude           on PATH: the binary under test; a serving command (`prelude`, `prelude serve …`) is started on
                    port 0 with its own scratch database, must log "listening" and answer /readyz 200, then is
                    stopped with SIGINT and must exit 0
  swift             a function: `swift run prelude ARGS` is `prelude ARGS`; anything else is refused
  curl              on PATH: curl with --fail-with-body unless the example already says -f, so an HTTP error
                    status (4xx/5xx) fails the example

`http://127.0.0.1:8080` and `localhost:8080` in an example are the documented default address: the checker runs the
example against its own server's address instead. Nothing else in an example is rewritten (times in examples must be
computed relative to now by the example itself).

A block preceded by `<!-- docs-check: skip — REASON -->` on the line just before its fence is not run; the reason is
printed, and a skip without a reason is a failure. Exit status 0 when every block ran, 1 on any failure (each named
with its file, line and the command's stderr), 2 on bad usage.
"""

from __future__ import annotations

import json
import os
import re
import secrets
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
SHELL_LANGUAGES = {"sh", "bash", "shell", "console"}
BLOCK_TIMEOUT = float(os.environ.get("DOCS_CHECK_BLOCK_TIMEOUT", "120"))
DEFAULT_ADDRESSES = re.compile(r"(?:127\.0\.0\.1|localhost):8080\b")
SKIP = re.compile(r"^\s*<!--\s*docs-check:\s*skip\b\s*(?P<rest>.*?)\s*-->\s*$")
DIRECTIVE = re.compile(r"^\s*<!--\s*docs-check:")
FENCE = re.compile(r"^(?P<indent>\s*)(?P<fence>`{3,}|~{3,})\s*(?P<info>[^`\s]*)?.*$")


@dataclass
class Block:
    path: Path
    fence_line: int  # 1-based line number of the opening fence
    language: str
    lines: list[str]  # body lines, fence indentation removed
    skip_reason: str | None = None
    problem: str | None = None  # a malformed directive

    @property
    def first_line(self) -> str:
        for line in self.lines:
            if line.strip():
                return line.strip()
        return ""

    def script(self) -> str:
        """The block as bash source, line k of the script being markdown line fence_line + k."""
        if self.language != "console":
            return "\n".join(expect_statuses(self.lines)) + "\n"
        out: list[str] = []
        continuing = False
        for line in self.lines:
            stripped = line.lstrip()
            if continuing:
                out.append(line)
                continuing = line.rstrip().endswith("\\")
            elif stripped.startswith("$ "):
                out.append(stripped[2:])
                continuing = stripped.rstrip().endswith("\\")
            else:
                out.append("")  # output shown in the docs, not a command
        return "\n".join(out) + "\n"


EXPECTED_STATUS = re.compile(r"#\s*→\s*([45]\d\d)\b")


def expect_statuses(lines: list[str]) -> list[str]:
    """A `curl` command the docs say is refused — `# → 403 …` at the end of its last line, or on the comment line
    right after it — must get exactly that status: its first line is prefixed with `DOCS_CHECK_EXPECT=403`, which the
    curl wrapper checks instead of failing on every status >= 400. Nothing else in the line changes."""
    out = list(lines)
    start: int | None = None  # first line of the command being read
    last_command: int | None = None  # first line of the last complete command
    for index, line in enumerate(lines):
        stripped = line.strip()
        if start is None and stripped.startswith("#"):
            found = EXPECTED_STATUS.match(stripped)
            if found and last_command is not None:
                out[last_command] = prefix_expectation(out[last_command], found.group(1))
            last_command = None if not found else last_command
            continue
        if start is None:
            if not stripped:
                last_command = None
                continue
            start = index
        if not line.rstrip().endswith("\\"):
            found = EXPECTED_STATUS.search("#" + line.split(" #", 1)[1]) if " #" in line else None
            if found:
                out[start] = prefix_expectation(out[start], found.group(1))
            last_command = start
            start = None
    return out


def prefix_expectation(line: str, status: str) -> str:
    stripped = line.lstrip()
    if not stripped.startswith("curl "):
        return line
    return line[: len(line) - len(stripped)] + f"DOCS_CHECK_EXPECT={status} " + stripped


@dataclass
class Failure:
    block: Block
    message: str
    line: int | None = None
    stderr: str = ""
    stdout: str = ""

    def render(self) -> str:
        where = f"{rel(self.block.path)}:{self.line or self.block.fence_line}"
        head = (
            f"FAIL {where}: {self.message}\n"
            f"     block at line {self.block.fence_line} ({self.block.language}), first line: {self.block.first_line}"
        )
        parts = [head]
        if self.stderr.strip():
            parts.append("     stderr (last lines):\n" + indent(tail(self.stderr, 30)))
        if self.stdout.strip():
            parts.append("     stdout (last lines):\n" + indent(tail(self.stdout, 15)))
        return "\n".join(parts)


def rel(path: Path) -> str:
    try:
        return str(path.resolve().relative_to(REPO))
    except ValueError:
        return str(path)


def tail(text: str, count: int, width: int = 400) -> str:
    lines = text.rstrip("\n").split("\n")[-count:]
    return "\n".join(line if len(line) <= width else line[:width] + " …" for line in lines)


def indent(text: str) -> str:
    return "\n".join("       " + line for line in text.split("\n"))


def parse(path: Path) -> list[Block]:
    lines = path.read_text(encoding="utf-8").split("\n")
    blocks: list[Block] = []
    i = 0
    while i < len(lines):
        match = FENCE.match(lines[i])
        if not match:
            i += 1
            continue
        fence = match.group("fence")
        indentation = len(match.group("indent"))
        language = (match.group("info") or "").lower()
        j = i + 1
        closing = re.compile(r"^\s*" + re.escape(fence[0]) + "{" + str(len(fence)) + r",}\s*$")
        while j < len(lines) and not closing.match(lines[j]):
            j += 1
        if language in SHELL_LANGUAGES:
            body = [line[indentation:] if line[:indentation].strip() == "" else line.lstrip() for line in lines[i + 1 : j]]
            block = Block(path, i + 1, language, body)
            previous = lines[i - 1] if i > 0 else ""
            if DIRECTIVE.match(previous):
                skip = SKIP.match(previous)
                if not skip:
                    block.problem = f"unknown docs-check directive on line {i}: {previous.strip()}"
                else:
                    reason = re.sub(r"^[\s—–:\-]+", "", skip.group("rest")).strip()
                    if reason:
                        block.skip_reason = reason
                    else:
                        block.problem = (
                            f"a skip without a reason on line {i}: write <!-- docs-check: skip — why it cannot run in CI -->"
                        )
            blocks.append(block)
        i = j + 1
    return blocks


# ---------------------------------------------------------------------------------------------------------------------
# The tools on the session's PATH

PRELUDE_WRAPPER = r"""#!/usr/bin/env bash
# docs-check: `prelude` in the docs is the binary under test (scripts/check-docs.py).
set -euo pipefail
binary=__BINARY__
subcommands=" migrate healthcheck policy token experiments results events backup changes help "
serving=1
for arg in "$@"; do
    case "$arg" in --help|-h|--version|help) serving=0 ;; esac
done
if (($# > 0)) && [[ "$1" != serve && "$1" != -* ]]; then serving=0; fi
if ((serving == 0)); then exec "$binary" "$@"; fi

# A serving command: start it on port 0 (the documented port may be taken on this machine) with its own database
# unless it names one, wait until it listens and answers /readyz, then stop it as Ctrl-C would.
args=()
expect=""
for arg in "$@"; do
    if [[ "$expect" == port ]]; then args+=(0); expect=""; continue; fi
    case "$arg" in
        --port|--admin-port) args+=("$arg"); expect=port ;;
        --port=*|--admin-port=*) args+=("${arg%%=*}=0") ;;
        *) args+=("$arg") ;;
    esac
done
export PRELUDE_PORT=0
if [[ -n "${PRELUDE_ADMIN_PORT:-}" ]]; then export PRELUDE_ADMIN_PORT=0; fi
if [[ " $* " != *" --database"* && "${PRELUDE_DATABASE:-}" == "$DOCS_CHECK_SERVER_DATABASE" ]]; then
    export PRELUDE_DATABASE="$DOCS_CHECK_DIR/serve-$$.sqlite"
fi
unset PRELUDE_ADMIN_TOKEN
log="$DOCS_CHECK_DIR/serve-$$.log"
"$binary" "${args[@]}" 2>"$log" &
pid=$!
port=""
for _ in $(seq 1 300); do
    port="$(grep -o '"msg":"listening".*"port":[0-9]*' "$log" | grep -o '"port":[0-9]*' | grep -o '[0-9]*' | head -n 1 || true)"
    [[ -n "$port" ]] && break
    if ! kill -0 "$pid" 2>/dev/null; then
        status=0; wait "$pid" || status=$?
        cat "$log" >&2
        echo "docs-check: \`prelude $*\` exited with status $status before listening" >&2
        exit "$status"
    fi
    sleep 0.1
done
if [[ -z "$port" ]]; then
    kill -KILL "$pid" 2>/dev/null || true
    cat "$log" >&2
    echo "docs-check: \`prelude $*\` did not log \"listening\" within 30 s" >&2
    exit 1
fi
ready=""
for _ in $(seq 1 150); do
    if [[ "$(__CURL__ -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$port/readyz")" == 200 ]]; then ready=1; break; fi
    sleep 0.1
done
kill -INT "$pid"
status=0; wait "$pid" || status=$?
if [[ -z "$ready" ]]; then
    cat "$log" >&2
    echo "docs-check: \`prelude $*\` listened on port $port but /readyz did not answer 200 within 15 s" >&2
    exit 1
fi
if [[ "$status" != 0 ]]; then
    cat "$log" >&2
    echo "docs-check: \`prelude $*\` exited with status $status after SIGINT, expected 0" >&2
    exit 1
fi
echo "docs-check: \`prelude $*\` listened (port $port), /readyz 200, stopped with SIGINT, exit 0" >&2
"""

CURL_WRAPPER = r"""#!/usr/bin/env bash
# docs-check: an HTTP error status fails the example, as `curl -f` would (scripts/check-docs.py).
real=__CURL__
fail=""
for arg in "$@"; do
    case "$arg" in
        --fail|--fail-with-body|--fail-early) fail=1 ;;
        --*) ;;
        -*f*) [[ "$arg" =~ ^-[A-Za-z0-9#:]+$ ]] && fail=1 ;;
    esac
done
for arg in "$@"; do
    case "$arg" in -w|--write-out|-w*) exec "$real" $([[ -z "$fail" ]] && echo --fail-with-body) "$@" ;; esac
done
# An example that shows a refusal (`# → 409 …`) must get exactly that status (expect_statuses in check-docs.py).
if [[ -n "${DOCS_CHECK_EXPECT-}" ]]; then
    got="$("$real" --write-out '%{http_code}' --output "${TMPDIR:-/tmp}/docs-check-expected-body.$$" "$@")" || {
        echo "docs-check: curl failed before an answer: curl $*" >&2; exit 1; }
    cat "${TMPDIR:-/tmp}/docs-check-expected-body.$$"; rm -f "${TMPDIR:-/tmp}/docs-check-expected-body.$$"
    echo "docs-check: HTTP $got, the example says $DOCS_CHECK_EXPECT: curl $*" >&2
    [[ "$got" == "$DOCS_CHECK_EXPECT" ]] || { echo "docs-check: expected HTTP $DOCS_CHECK_EXPECT, got $got" >&2; exit 1; }
    exit 0
fi
# The status line goes to stderr (shown only when the example fails).
status=0
"$real" $([[ -z "$fail" ]] && echo --fail-with-body) --write-out '%{stderr}docs-check: HTTP %{http_code} from %{method} %{url_effective}\n' "$@" || status=$?
if [[ "$status" == 22 ]]; then
    echo "docs-check: curl got an HTTP error status (>= 400): curl $*" >&2
fi
exit "$status"
"""

SESSION_PREAMBLE = r"""
set -Eeuo pipefail
swift() {
    if [[ "${1-}" == run ]]; then
        local quiet=""
        if [[ "${2-}" == -q || "${2-}" == --quiet ]]; then quiet=1; fi
        if [[ "${2-}" == prelude ]]; then shift 2; prelude "$@"; return; fi
        if [[ -n "$quiet" && "${3-}" == prelude ]]; then shift 3; prelude "$@"; return; fi
    fi
    echo "docs-check: \`swift $*\` is not run by the docs check (only \`swift run prelude ARGS\`, which runs the binary under test); CI builds and tests in its own steps: mark the block <!-- docs-check: skip — REASON -->" >&2
    return 127
}
trap '__dc_status=$?; if [[ "${BASH_SOURCE[0]-}" == "$DOCS_CHECK_DIR"/block-*.sh ]]; then echo "docs-check: exit status $__dc_status at line $LINENO of the block: $BASH_COMMAND" >&2; [[ -e "$DOCS_CHECK_DIR/failed-line" ]] || echo "$LINENO" > "$DOCS_CHECK_DIR/failed-line"; fi' ERR
"""


# ---------------------------------------------------------------------------------------------------------------------
# The server


class Server:
    def __init__(self, binary: str, directory: Path, env: dict[str, str]):
        self.directory = directory
        self.database = directory / "work" / "prelude.sqlite"
        self.token = "docs_" + secrets.token_hex(32)
        self.log_path = directory / "server.log"
        server_env = dict(env)
        server_env.update(
            PRELUDE_PORT="0",
            PRELUDE_DATABASE=str(self.database),
            PRELUDE_ADMIN_TOKEN=self.token,
            PRELUDE_LOG_LEVEL="info",  # the "listening" line gives the port
            # README.md, docs/webhooks.md and docs/change-management.md register receivers at hooks.example.com,
            # whose host the docs say must be allowed (nothing is reachable there from CI: deliveries just retry).
            PRELUDE_WEBHOOK_ALLOWED_HOSTS="hooks.example.com",
        )
        self.log = open(self.log_path, "wb")
        self.process = subprocess.Popen(
            [binary, "serve"],
            cwd=directory / "work",
            env=server_env,
            stdin=subprocess.DEVNULL,
            stdout=self.log,
            stderr=self.log,
            start_new_session=True,
        )
        try:
            self.port = self._wait_for_port()
            self.url = f"http://127.0.0.1:{self.port}"
            self._wait_ready()
        except BaseException:
            self.stop()  # never leave a server behind
            raise

    def _wait_for_port(self) -> int:
        deadline = time.monotonic() + 30
        pattern = re.compile(r'"msg":"listening".*?"port":(\d+)')
        while time.monotonic() < deadline:
            match = pattern.search(self.log_path.read_text(errors="replace"))
            if match:
                return int(match.group(1))
            if self.process.poll() is not None:
                raise RuntimeError(f"server exited ({self.process.returncode}) during start-up:\n{self.log_text()}")
            time.sleep(0.05)
        raise RuntimeError(f"server did not log its port within 30 s:\n{self.log_text()}")

    def _wait_ready(self) -> None:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                with urllib.request.urlopen(self.url + "/readyz", timeout=2) as answer:
                    if answer.status == 200:
                        return
            except OSError:
                pass
            time.sleep(0.05)
        raise RuntimeError(f"{self.url}/readyz did not answer 200 within 30 s:\n{self.log_text()}")

    def create_token(self, env: dict[str, str], name: str, *flags: str) -> str:
        result = subprocess.run(
            [env["DOCS_CHECK_BINARY"], "token", "create", "--name", name, "--scope", "write", *flags],
            env=env,
            cwd=self.directory / "work",
            capture_output=True,
            text=True,
            timeout=30,
        )
        if result.returncode != 0:
            raise RuntimeError(f"prelude token create --name {name} failed: {result.stderr}")
        return result.stdout.strip()

    def healthz(self) -> dict:
        with urllib.request.urlopen(self.url + "/healthz", timeout=5) as answer:
            return json.load(answer)

    def log_text(self) -> str:
        return tail(self.log_path.read_text(errors="replace"), 40)

    def stop(self) -> None:
        if self.log.closed:
            return
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGINT)  # its own process group (start_new_session)
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                pass
        try:
            os.killpg(self.process.pid, signal.SIGKILL)  # whatever is left of the group
        except ProcessLookupError:
            pass
        self.process.wait()
        self.log.close()


# ---------------------------------------------------------------------------------------------------------------------
# One file


@dataclass
class FileResult:
    path: Path
    ran: int = 0
    skipped: list[Block] = field(default_factory=list)
    not_run: int = 0
    failures: list[Failure] = field(default_factory=list)
    seconds: float = 0.0
    live_version: str | None = None


def prepare_directory(root: Path, binary: str) -> tuple[Path, Path]:
    work = root / "work"
    work.mkdir()
    shutil.copytree(REPO / "config", work / "config")
    for name in ("scripts", "deploy", "migrations", "Fuzz", "openapi.yaml", "Tests"):
        if (REPO / name).exists():
            (work / name).symlink_to(REPO / name)
    bin_dir = root / "bin"
    bin_dir.mkdir()
    real_curl = shutil.which("curl")
    if real_curl is None:
        raise RuntimeError("curl is not on PATH")
    (bin_dir / "prelude").write_text(
        PRELUDE_WRAPPER.replace("__BINARY__", shell_quote(binary)).replace("__CURL__", shell_quote(real_curl))
    )
    (bin_dir / "curl").write_text(CURL_WRAPPER.replace("__CURL__", shell_quote(real_curl)))
    for tool in ("prelude", "curl"):
        (bin_dir / tool).chmod(0o755)
    return work, bin_dir


def shell_quote(text: str) -> str:
    return "'" + text.replace("'", "'\"'\"'") + "'"


def base_environment() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PRELUDE_") and not k.startswith("DOCS_CHECK_")}
    env.pop("BASH_ENV", None)
    env.pop("ENV", None)
    env["LC_ALL"] = env.get("LC_ALL", "C.UTF-8")
    return env


FIXED_INSTANT = re.compile(r"\b20\d\d-[01]\d-[0-3]\d(?:[T ][0-2]\d:[0-5]\d(?::[0-5]\d)?(?:\.\d+)?(?:Z|[+-][0-2]\d:?[0-5]\d)?)?")
TRAILING_COMMENT = re.compile(r"\s#\s.*$")


def fixed_instants(block: Block) -> list[Failure]:
    """A date or instant written into a command goes stale: examples compute times from now (`date -u -d …`)."""
    failures = []
    for number, line in enumerate(block.script().split("\n"), 1):
        code = line.strip()
        if code.startswith("#"):
            continue
        code = TRAILING_COMMENT.sub("", code)
        match = FIXED_INSTANT.search(code)
        if match:
            failures.append(
                Failure(
                    block,
                    f"a fixed date or instant in a command ({match.group(0)}): compute it from now, "
                    "e.g. at=\"$(date -u -d '+1 hour' +%Y-%m-%dT%H:%M:%SZ)\"",
                    block.fence_line + number,
                )
            )
    return failures


def check_file(path: Path, binary: str) -> FileResult:
    result = FileResult(path)
    started = time.monotonic()
    blocks = parse(path)
    for block in blocks:
        if block.problem:
            result.failures.append(Failure(block, block.problem))
        elif block.skip_reason is None:
            result.failures += fixed_instants(block)
    runnable = [b for b in blocks if b.skip_reason is None and b.problem is None]
    result.skipped = [b for b in blocks if b.skip_reason is not None]
    if not runnable:
        result.seconds = time.monotonic() - started
        return result

    root = Path(tempfile.mkdtemp(prefix="docs-check-"))
    server = None
    session = None
    try:
        work, bin_dir = prepare_directory(root, binary)
        env = base_environment()
        env["DOCS_CHECK_DIR"] = str(root)
        env["DOCS_CHECK_BINARY"] = binary
        env["PATH"] = f"{bin_dir}:{env.get('PATH', '/usr/bin:/bin')}"
        server = Server(binary, root, env)
        result.live_version = server.healthz().get("version")
        env["DOCS_CHECK_SERVER_DATABASE"] = str(server.database)
        env["PRELUDE_DATABASE"] = str(server.database)
        scripts = "".join(b.script() for b in runnable)
        if re.search(r"\$\{?ALICE\b", scripts):  # docs/change-management.md's worked example
            env["ALICE"] = server.create_token(env, "alice")
        if re.search(r"\$\{?BOB\b", scripts):
            env["BOB"] = server.create_token(env, "bob", "--approve")
        env["PRELUDE_URL"] = server.url
        env["PRELUDE_TOKEN"] = server.token
        session = subprocess.Popen(
            ["bash", "--noprofile", "--norc"],
            cwd=work,
            env=env,
            stdin=subprocess.PIPE,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
            text=True,
        )
        session.stdin.write(SESSION_PREAMBLE)
        session.stdin.flush()
        address = server.url.removeprefix("http://")
        for index, block in enumerate(runnable):
            script = DEFAULT_ADDRESSES.sub(address, block.script())
            script_path = root / f"block-{index}.sh"
            script_path.write_text(script)
            out, err, done = (root / f"out-{index}", root / f"err-{index}", root / f"rc-{index}")
            session.stdin.write(
                f"rm -f {shell_quote(str(root / 'failed-line'))}\n"
                f'exec 1>{shell_quote(str(out))} 2>{shell_quote(str(err))}\n'
                f"source {shell_quote(str(script_path))} </dev/null\n"
                f"echo 0 > {shell_quote(str(done))}\n"
            )
            session.stdin.flush()
            deadline = time.monotonic() + BLOCK_TIMEOUT
            while not done.exists() and session.poll() is None and time.monotonic() < deadline:
                time.sleep(0.02)
            if done.exists():
                result.ran += 1
                continue
            failed_line = None
            line_file = root / "failed-line"
            if line_file.exists():
                try:
                    failed_line = block.fence_line + int(line_file.read_text().strip())
                except ValueError:
                    pass
            if session.poll() is None:
                os.killpg(session.pid, signal.SIGKILL)
                session.wait()
                message = f"timed out after {BLOCK_TIMEOUT:.0f} s"
            else:
                message = f"a command failed (exit status {session.returncode})"
            result.failures.append(
                Failure(block, message, failed_line, read(err), read(out))
            )
            result.not_run = len(runnable) - index - 1
            break
    except Exception as error:  # the server or the session could not start
        first = runnable[0]
        log = server.log_text() if server else ""
        result.failures.append(Failure(first, f"could not run the file's examples: {error}", stderr=log))
    finally:
        if session is not None:
            if session.poll() is None:
                try:
                    session.stdin.close()
                except OSError:
                    pass
                try:
                    session.wait(timeout=5)
                except subprocess.TimeoutExpired:
                    pass
            try:
                os.killpg(session.pid, signal.SIGKILL)  # background jobs an example left behind
            except ProcessLookupError:
                pass
        if server is not None:
            server.stop()
        if os.environ.get("DOCS_CHECK_KEEP"):
            print(f"  (kept {root})")
        else:
            shutil.rmtree(root, ignore_errors=True)
    result.seconds = time.monotonic() - started
    return result


def read(path: Path) -> str:
    try:
        return path.read_text(errors="replace")
    except FileNotFoundError:
        return ""


# ---------------------------------------------------------------------------------------------------------------------
# Documented versions


VERSION_MENTION = re.compile(r'"version"\s*:\s*"(\d+\.\d+\.\d+)"')


def version_failures(paths: list[Path], live: str) -> list[Failure]:
    """A documented /healthz answer or listening log line must show the version the build reports."""
    failures = []
    for path in paths:
        for number, line in enumerate(path.read_text(encoding="utf-8").split("\n"), 1):
            if not ("healthz" in line or '"service":"prelude"' in line or '"msg":"listening"' in line):
                continue
            for match in VERSION_MENTION.finditer(line):
                if match.group(1) != live:
                    block = Block(path, number, "text", [line])
                    failures.append(
                        Failure(
                            block,
                            f'documents version {match.group(1)} where the build reports {live} '
                            "(ServiceInfo.version, GET /healthz)",
                            number,
                        )
                    )
    return failures


def main(argv: list[str]) -> int:
    if len(argv) < 2 or argv[1] in ("-h", "--help"):
        print(__doc__.strip(), file=sys.stderr if len(argv) < 2 else sys.stdout)
        return 2 if len(argv) < 2 else 0
    binary = os.path.abspath(argv[1])
    if not os.access(binary, os.X_OK):
        print(f"check-docs: {argv[1]} is not an executable prelude binary", file=sys.stderr)
        return 2
    if len(argv) > 2:
        paths = [Path(p).resolve() for p in argv[2:]]
        missing = [str(p) for p in paths if not p.is_file()]
        if missing:
            print(f"check-docs: no such file: {', '.join(missing)}", file=sys.stderr)
            return 2
    else:
        paths = [REPO / "README.md"] + sorted((REPO / "docs").glob("*.md"))
    # `timeout` in CI sends SIGTERM: unwind, so that every server and session is stopped (the finally blocks).
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(124))
    started = time.monotonic()
    results: list[FileResult] = []
    for path in paths:
        result = check_file(path, binary)
        results.append(result)
        if result.ran or result.skipped or result.failures:
            status = "FAILED" if result.failures else "ok"
            extra = f", {result.not_run} not run after the failure" if result.not_run else ""
            print(
                f"{status:6} {rel(path)}: {result.ran} blocks run, {len(result.skipped)} skipped{extra}, "
                f"{result.seconds:.1f} s",
                flush=True,
            )
            for block in result.skipped:
                print(f"         skipped line {block.fence_line} ({block.first_line[:60]}): {block.skip_reason}")
            for failure in result.failures:
                print(failure.render(), flush=True)
    failures = [f for r in results for f in r.failures]
    live = next((r.live_version for r in results if r.live_version), None)
    if live:
        version_problems = version_failures(paths, live)
        for failure in version_problems:
            print(failure.render())
        failures += version_problems
    ran = sum(r.ran for r in results)
    skipped = sum(len(r.skipped) for r in results)
    print(
        f"docs check: {ran} blocks run, {skipped} skipped, {len(failures)} failures in "
        f"{time.monotonic() - started:.1f} s"
    )
    if failures:
        print("docs check FAILED:", file=sys.stderr)
        for failure in failures:
            print(f"  {rel(failure.block.path)}:{failure.line or failure.block.fence_line}: {failure.message.splitlines()[0]}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
