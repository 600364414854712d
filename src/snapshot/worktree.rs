//! The working-tree snapshot: tracked files plus untracked files git does not ignore.
