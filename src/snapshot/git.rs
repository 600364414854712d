//! Snapshots of a commit's tree, read from the object database with git2.
