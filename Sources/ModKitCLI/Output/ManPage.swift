import Foundation
import ModKit

/// `modkit help --man`: the manual page, in roff, generated from the same registry as `--help`.
enum ManPage {
    static func render(version: String) -> String {
        var lines = [
            ".TH MODKIT 1 \"\" \"modkit \(version)\" \"User Commands\"",
            ".SH NAME",
            "modkit \\- manage the modules of a product through their whole release life",
            ".SH SYNOPSIS",
            ".B modkit",
            "[\\fIglobal options\\fR] \\fIcommand\\fR [\\fIoptions\\fR] [\\fIarguments\\fR]",
            ".SH DESCRIPTION",
            text("""
            modkit manages the modules of a product \u{2014} many git repositories listed in a manifest \
            (modkit.yml), or directories of one monorepo: it syncs them, snapshots every module's commit \
            as one release tag and restores it, pins dependency requirements to exact versions, writes \
            version guards the compiler enforces, scaffolds new modules and walks the release checklist.
            """),
            ".SH GLOBAL OPTIONS",
        ]
        lines += GlobalOptions.specs.flatMap(option)
        lines += [".TP", "\\fB\\-\\-version\\fR", "Show the version of modkit and libgit2."]
        lines.append(".SH COMMANDS")
        for command in Registry.commands {
            let spec = command.spec
            lines.append(".SS \(quoted(Help.usageLine(for: spec)))")
            lines.append(text(spec.summary + "."))
            if !spec.discussion.isEmpty { lines += [".PP", text(spec.discussion)] }
            if !spec.options.isEmpty {
                lines += [".PP", "Options:", ".RS"]
                lines += spec.options.flatMap(option)
                lines.append(".RE")
            }
            if !spec.examples.isEmpty {
                lines += [".PP", "Examples:", ".RS", ".nf"]
                lines += spec.examples.map(text)
                lines += [".fi", ".RE"]
            }
        }
        lines += [
            ".SH EXIT STATUS",
            ".TP", "0", "Success.",
            ".TP", "1", "The command ran but something failed (a module failed to sync, a check found a problem).",
            ".TP", "2", "Usage error, bad manifest or bad input.",
            ".TP", "130", "Interrupted (Ctrl-C).",
            ".SH ENVIRONMENT",
            ".TP", "NO_COLOR", "Never colour output.",
            ".TP", "MODKIT_TEMPLATES", "Folder of the built-in module templates.",
            ".SH FILES",
            ".TP", "modkit.yml", "The workspace manifest, found by walking up from the current directory.",
            ".TP", text(".modkit/snapshots/*.yml"), "Snapshot files, committed in the manifest repository.",
            ".SH SEE ALSO",
            "git(1)",
        ]
        return lines.joined(separator: "\n")
    }

    /// One option as a tagged paragraph: `-j, --jobs N` then its help.
    private static func option(_ spec: OptionSpec) -> [String] {
        var tag = spec.short.map { "\\fB\\-\($0)\\fR, " } ?? ""
        tag += "\\fB\\-\\-\(escape(spec.long))\\fR"
        switch spec.kind {
        case .flag: break
        case .value(let metavar), .repeated(let metavar): tag += " \\fI\(escape(metavar))\\fR"
        }
        return [".TP", tag, text(spec.help)]
    }

    /// Body text with roff's special characters escaped and no line starting a request.
    private static func text(_ body: String) -> String {
        body.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            let escaped = escape(String(line))
            return escaped.first == "." || escaped.first == "'" ? "\\&" + escaped : escaped
        }.joined(separator: "\n")
    }

    /// Backslashes and hyphens as roff wants them, and every non-ASCII character as a `\[uXXXX]` glyph.
    private static func escape(_ text: String) -> String { StringEscaping.roff(text) }

    private static func quoted(_ text: String) -> String {
        "\"" + escape(text).replacingOccurrences(of: "\"", with: "\\(dq") + "\""
    }
}
