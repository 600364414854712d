//! `recount bisect`: binary search over a range's first-parent commits for the
//! first commit where a claim (or any claim of a fact) drifts.

use clap::Args;

use super::history::Walk;
use super::{EXIT_CLEAN, EXIT_FINDINGS, print_notes, print_out};
use crate::history::{Bisection, Selection, Session};

#[derive(Debug, Args)]
pub struct BisectArgs {
    #[command(flatten)]
    pub walk: Walk,
    /// The claim to follow: FACT#N, the N-th claim of the fact (from 1).
    #[arg(long, value_name = "ID", required_unless_present = "fact")]
    pub claim: Option<String>,
    /// Follow every claim of this fact: the first commit where any drifts.
    #[arg(long, value_name = "ID", conflicts_with = "claim")]
    pub fact: Option<String>,
    /// Output format, as every other command takes it.
    #[arg(long, value_enum, default_value_t = BisectFormat::Human)]
    pub format: BisectFormat,
    /// The same as `--format json` (kept for scripts written before it).
    #[arg(long, hide = true)]
    pub json: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum BisectFormat {
    Human,
    Json,
}

pub fn run(args: &BisectArgs) -> miette::Result<u8> {
    let options = args.walk.options();
    let mut session = Session::open(&options)?;
    let selection = Selection {
        fact: args.fact.clone(),
        claim: args.claim.clone(),
    };
    let claims = selection.resolve(session.plan())?;
    let commits = session.commits(&options.range)?;
    print_notes(session.notes());
    let found = crate::history::bisect(&session, &commits, &claims)?;
    let what = match (&args.claim, &args.fact) {
        (Some(claim), _) => format!("claim {claim}"),
        (None, Some(fact)) => format!("a claim of fact {fact}"),
        (None, None) => "the claim".to_owned(),
    };
    let out = if args.json || args.format == BisectFormat::Json {
        let mut out = crate::escape::json_pretty(&found)
            .map_err(|e| miette::miette!("cannot serialise the outcome: {e}"))?;
        out.push('\n');
        out
    } else {
        crate::report::history::bisection(&found, &crate::escape::untrusted(&what, 200))
    };
    print_out(&out)?;
    Ok(match found {
        Bisection::Culprit { .. } => EXIT_CLEAN,
        Bisection::NeverFalse { .. }
        | Bisection::NeverTrue { .. }
        | Bisection::Unverified { .. } => EXIT_FINDINGS,
    })
}
