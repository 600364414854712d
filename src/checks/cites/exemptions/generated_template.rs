//! Exemption `generated-template`, decided after the history's evidence
//! (`evidence/mod.rs`): a path that held when its line was written and that
//! the history then moved into a template the project makes new projects
//! from (phoenix's `config/dev.exs`, now
//! `installer/templates/phx_single/config/dev.exs.eex`). The file became the
//! generated project's; a guide that names it speaks of the reader's project,
//! which the tool still writes so. The history's own move decides it.

use super::{Applies, Definition};

pub(super) const DEFINITION: Definition = Definition {
    doc: "A path that held when its line was written and that the history moved into a template the project generates new projects from: into a folder named `templates`, `template`, `_templates` or `skeleton`, or to its own name with a template's suffix (`dev.exs.eex`, `config.yml.tmpl`, `setup.cfg.j2`). The file is now the generated project's, and the page names the reader's copy of it.",
    applies: Applies::Resolver,
    history_overrules: false,
    fires: None,
    stale_if_history_knows: false,
};

/// The suffixes template engines give a file they render.
pub(super) const TEMPLATE_SUFFIXES: &[&str] = &[
    "eex", "heex", "tmpl", "tpl", "j2", "jinja", "jinja2", "hbs", "mustache", "liquid", "tera",
    "template", "erb",
];

/// Why a path that moved to `to` is a template's file now, if `to` is one
/// of `cited`: under a templates folder with the cited path's tail, or the
/// cited name with a template's suffix.
pub(in crate::checks::cites) fn fires(cited: &str, to: &str) -> Option<String> {
    let name = cited.trim_end_matches('/').rsplit('/').next()?;
    if name.is_empty() {
        return None;
    }
    let to_name = to.rsplit('/').next().unwrap_or(to);
    let suffixed = to_name
        .strip_prefix(name)
        .and_then(|rest| rest.strip_prefix('.'))
        .is_some_and(|suffix| TEMPLATE_SUFFIXES.contains(&suffix));
    let in_templates = to
        .split('/')
        .rev()
        .skip(1)
        .any(|folder| matches!(folder, "templates" | "template" | "_templates" | "skeleton"));
    (suffixed || (in_templates && to_name.starts_with(name))).then(|| {
        format!(
            "`{cited}` moved into `{to}`, a template the project generates new projects from: the page names the generated project's file"
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fires_where_the_file_became_a_templates() {
        assert!(
            fires(
                "config/dev.exs",
                "installer/templates/phx_single/config/dev.exs.eex"
            )
            .is_some()
        );
        assert!(fires("setup.cfg", "scaffold/setup.cfg.j2").is_some());
        assert!(fires("app/main.go", "skeleton/app/main.go").is_some());
    }

    #[test]
    fn stays_quiet_for_an_ordinary_move() {
        assert!(fires("config/dev.exs", "config/environments/dev.exs").is_none());
        assert!(fires("src/lib.rs", "crates/core/src/lib.rs").is_none());
        // Another file in a templates folder is no copy of this one.
        assert!(fires("docs/guide.md", "docs/templates/page.html").is_none());
    }
}
