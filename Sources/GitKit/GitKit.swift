internal import CLibgit2
