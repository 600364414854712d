//! Stage 4 (checks), the citation family: the Python objects a Sphinx
//! project's pages describe themselves — `.. class:: Request`, a method nested
//! in it, `.. py:function:: run` — which a role resolves to whatever the code
//! says, as Sphinx's own build does; and what autodoc directives
//! (`.. autoclass:: pkg.Client`) pull in from the code. Read line
//! by line, as labels are: the directive, its indentation (a description
//! nested in a class's is a member of it) and the `.. module::` or
//! `.. currentmodule::` in effect.

use std::collections::BTreeSet;
use std::sync::OnceLock;

use regex::Regex;

/// What one page's object descriptions name.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Described {
    /// Full dotted names (`pkg.request.Request.json_body`) of descriptions
    /// written out, and a name as written when it holds a dot (it may be
    /// absolute already).
    pub objects: BTreeSet<String>,
    /// Classes an `.. autoclass::` documents with `:inherited-members:`: its
    /// members include those of bases another project defines.
    pub inherited_members: BTreeSet<String>,
    /// What autodoc directives (`.. automodule::`, `.. autoclass::`) pull
    /// in from the code: their docstrings are text of the page.
    pub autodoc: BTreeSet<String>,
    /// Objects another Sphinx domain's directives describe, as written
    /// (`.. js:function:: OctoPrintClient.access.users.update`,
    /// `.. c:function:: PyObject_Call`): each is a target of its name.
    pub other_domains: BTreeSet<String>,
}

/// The objects the directives of `text` describe.
pub fn described(text: &str) -> Described {
    static DIRECTIVE: OnceLock<Regex> = OnceLock::new();
    let directive = DIRECTIVE.get_or_init(|| {
        // rst's `.. autoclass:: X`; MyST's fenced ```` ```{autoclass} X ````
        // and `:::{py:function} run`.
        Regex::new(r"^(\s*)(?:\.\.\s+|`{3,}\{|:{3,}\{)(?:py:)?(auto)?(module|currentmodule|class|exception|function|method|classmethod|staticmethod|attribute|data|property|decorator|decoratormethod)(?:::|\})\s*(.*)$")
            .unwrap_or_else(|_| unreachable!("a fixed pattern"))
    });
    static OTHER_DOMAIN: OnceLock<Regex> = OnceLock::new();
    let other_domain = OTHER_DOMAIN.get_or_init(|| {
        Regex::new(r"^\s*(?:\.\.\s+|`{3,}\{|:{3,}\{)(?:js|c|cpp|rb|php|go|java|dotnet|net|ts|http|json|rst|std):[a-z:]+(?:::|\})\s*(.*)$")
            .unwrap_or_else(|_| unreachable!("a fixed pattern"))
    });
    let mut found = Described::default();
    let mut module: Option<String> = None;
    // The classes whose content the line is in: (indentation, full name).
    let mut classes: Vec<(usize, String)> = Vec::new();
    // The last `.. autoclass::`, for its options.
    let mut autoclass: Option<(usize, String)> = None;
    for line in text.lines() {
        let indent = line.len() - line.trim_start().len();
        if line.trim().is_empty() {
            continue;
        }
        if let Some((at, class)) = &autoclass {
            if indent > *at && line.trim_start().starts_with(":inherited-members:") {
                found.inherited_members.insert(class.clone());
            } else if indent <= *at {
                autoclass = None;
            }
        }
        while classes.last().is_some_and(|(at, _)| *at >= indent) {
            classes.pop();
        }
        let Some(caps) = directive.captures(line) else {
            // The name is the last word before the parameters (a C
            // signature's return type comes first), else the first word.
            if let Some(caps) = other_domain.captures(line) {
                let signature = caps[1].trim();
                let name = match signature.split_once('(') {
                    Some((before, _)) => before.trim_end().rsplit([' ', '*', '&']).next(),
                    None => signature.split_whitespace().next(),
                }
                .unwrap_or_default()
                .trim_end_matches(['.', ':', '}']);
                if name.starts_with(|c: char| c.is_alphabetic() || c == '_' || c == '$') {
                    found.other_domains.insert(name.to_owned());
                }
            }
            continue;
        };
        let kind = &caps[3];
        let name: String = caps[4]
            .trim()
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_' || *c == '.')
            .collect();
        let name = name.trim_matches('.').to_owned();
        if kind == "module" || kind == "currentmodule" {
            let named = (!name.is_empty() && name != "None").then_some(name);
            if caps.get(2).is_some() {
                found.autodoc.extend(named);
            } else {
                // `.. module:: alarm` describes the module: a target
                // `:mod:`alarm`` resolves to (`currentmodule` makes none).
                if kind == "module" {
                    found.objects.extend(named.clone());
                }
                module = named;
            }
            continue;
        }
        if name.is_empty() {
            continue;
        }
        let full = match (classes.last(), &module) {
            (Some((_, class)), _) if !name.starts_with(&format!("{class}.")) => {
                format!("{class}.{name}")
            }
            (Some(_), _) => name.clone(),
            (None, Some(module)) if !name.starts_with(&format!("{module}.")) => {
                format!("{module}.{name}")
            }
            _ => name.clone(),
        };
        // An autodoc directive documents what the code has: a name the code
        // lacks, autodoc cannot import, so only a description written out
        // (`.. class::`, `.. method::`) stands on its own.
        if caps.get(2).is_some() {
            found.autodoc.insert(full.clone());
        } else {
            if name.contains('.') {
                found.objects.insert(name.clone());
            }
            found.objects.insert(full.clone());
        }
        if kind == "class" || kind == "exception" {
            classes.push((indent, full.clone()));
            if caps.get(2).is_some() {
                autoclass = Some((indent, full));
            }
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn descriptions_are_named_by_their_module_and_class() {
        let text = "\
.. module:: shop.cart

.. autoclass:: Cart
   :members:
   :inherited-members:

   .. attribute:: owner

      Who holds it.

   .. method:: total(self)

.. function:: checkout(cart)

.. currentmodule:: shop.orders

.. py:class:: Order

   .. py:attribute:: number

.. currentmodule:: None

.. data:: VERSION
";
        let found = described(text);
        let objects: Vec<&str> = found.objects.iter().map(String::as_str).collect();
        assert_eq!(
            objects,
            [
                "VERSION",
                // `.. module::` describes its module; `.. currentmodule::`
                // (`shop.orders`) describes none.
                "shop.cart",
                "shop.cart.Cart.owner",
                "shop.cart.Cart.total",
                "shop.cart.checkout",
                "shop.orders.Order",
                "shop.orders.Order.number",
            ]
        );
        assert_eq!(
            found.inherited_members.into_iter().collect::<Vec<_>>(),
            ["shop.cart.Cart"]
        );
        assert_eq!(
            found.autodoc.into_iter().collect::<Vec<_>>(),
            ["shop.cart.Cart"]
        );
    }

    #[test]
    fn an_autoclass_without_inherited_members_and_other_directives_add_nothing_more() {
        let text = ".. autoclass:: pkg.Client\n   :members:\n\n.. note:: a class:: in prose\n";
        let found = described(text);
        assert!(found.objects.is_empty(), "autodoc documents the code's");
        assert_eq!(
            found.autodoc.into_iter().collect::<Vec<_>>(),
            ["pkg.Client"]
        );
        assert!(found.inherited_members.is_empty());
    }

    #[test]
    fn another_domains_directives_describe_their_names_as_written() {
        let text = ".. js:function:: OctoPrintClient.access.users.update(name, active)\n\n   Updates a user.\n\n.. c:function:: PyObject *PyObject_Call(x)\n\n.. http:get:: /api/users\n\n```{js:class} Client\n```\n\n.. py:function:: run\n";
        let found = described(text);
        let names: Vec<&str> = found.other_domains.iter().map(String::as_str).collect();
        assert_eq!(
            names,
            [
                "Client",
                "OctoPrintClient.access.users.update",
                "PyObject_Call"
            ]
        );
        // A Python description is the Python reading's, not another domain's.
        assert!(found.objects.contains("run"));
    }

    #[test]
    fn a_myst_pages_fenced_directives_describe_as_rsts_do() {
        let text = "```{currentmodule} kit\n```\n\n```{autofunction} load\n```\n\n:::{py:class} Store\n:::\n\n```{note} a {class} in prose\n```\n";
        let found = described(text);
        assert_eq!(found.autodoc.into_iter().collect::<Vec<_>>(), ["kit.load"]);
        assert_eq!(found.objects.into_iter().collect::<Vec<_>>(), ["kit.Store"]);
    }
}
