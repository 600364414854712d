//! Stage 4, the citation family: which records the citation checks (and the
//! transcripts) read — a project's own documentation. Each record-wide
//! exemption decides in its own file; this is the loop that asks them in
//! precedence order and counts what each set aside in one note.

use super::exemptions::{
    Exemption, ExemptionSettings, frozen_docs, test_material, translation_platform, vendored,
};
use crate::frames::Frame;

/// The records that are the project's own documentation, of those a record
/// glob `paths` selected: test material, vendored or copied code, pages a
/// translation platform writes and frozen documentation versions are set
/// aside, one note each ("citations of N records <what> not checked (<why>;
/// first: x)"). Citations and transcripts read the same records.
pub(crate) fn own_records(
    paths: Vec<String>,
    audited: &Frame,
    tags: &[String],
    exemptions: &ExemptionSettings,
    notes: &mut Vec<String>,
) -> Vec<String> {
    let mut aside = |paths: Vec<String>,
                     exemption: Exemption,
                     picks: &dyn Fn(&str) -> bool,
                     what: &str,
                     why: &str| {
        if !exemptions.is_on(exemption) {
            return paths;
        }
        let (set, kept): (Vec<String>, Vec<String>) = paths.into_iter().partition(|p| picks(p));
        if let Some(first) = set.first() {
            notes.push(format!(
                "citations of {} record{} {what} not checked ({exemption}: {why}; first: {first})",
                set.len(),
                if set.len() == 1 { "" } else { "s" }
            ));
        }
        kept
    };
    let paths = aside(
        paths,
        Exemption::TestMaterial,
        &test_material::is_test_material,
        "under fixtures or test data",
        "test material, not documentation",
    );
    let licensed: std::cell::RefCell<std::collections::HashMap<String, bool>> = Default::default();
    let mut synced = vendored::synced_folders(audited);
    synced.extend(vendored::packaged_folders(audited));
    let paths = aside(
        paths,
        Exemption::Vendored,
        &|p| {
            // The answer is the record's folder's: asked once per folder.
            crate::checks::cites::locate::is_vendored(p)
                // The synced folder, or a copy a build makes of it elsewhere
                // (`internal/assets/embedded_config/config/crucible-go/`).
                || synced.iter().any(|folder| {
                    p.starts_with(&format!("{folder}/")) || p.contains(&format!("/{folder}/"))
                })
                || {
                    let folder = p.rsplit_once('/').map_or("", |(folder, _)| folder);
                    *licensed
                        .borrow_mut()
                        .entry(folder.to_owned())
                        .or_insert_with(|| vendored::under_a_copied_licence(p, audited))
                }
        },
        "of vendored code",
        "another project's documentation, citing its own tree",
    );
    let translations = translation_platform::Translations::of(audited);
    let fixed_there = format!(
        "{} names them: they are fixed there, not here",
        translations.config
    );
    let paths = aside(
        paths,
        Exemption::TranslationPlatform,
        &|p| translations.manages(p),
        "a translation platform writes",
        &fixed_there,
    );
    let frozen = frozen_docs::older_doc_versions(&paths, tags);
    let paths = aside(
        paths,
        Exemption::FrozenDocs,
        &|p| frozen.contains(p),
        "in earlier documentation versions",
        "the docs as a release shipped them, history",
    );
    let unmaintained = frozen_docs::Unmaintained::new(audited.snapshot.as_ref());
    let paths = aside(
        paths,
        Exemption::FrozenDocs,
        &|p| unmaintained.holds(p),
        "under a folder its index says is no longer maintained",
        "left as it was, history",
    );
    let redirected = super::renderers::mdbook::redirected_pages(
        audited.snapshot.as_ref(),
        audited.snapshot.paths(),
    );
    aside(
        paths,
        Exemption::FrozenDocs,
        &|p| redirected.contains(p),
        "whose address their book's redirect table sends elsewhere",
        "retired by the book, which no longer builds them",
    )
}
