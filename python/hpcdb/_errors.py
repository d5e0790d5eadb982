"""hpcdb's exceptions. Every rank of a collective call raises the same one
with the same message: a user's mistake on one rank ends the call on all."""


class Error(RuntimeError):
    """The engine could not do what was asked (a corrupt file, too little memory)."""


class UsageError(Error, ValueError):
    """Something about the arguments or the data is wrong (a missing column,
    key types that do not match, an object that is not a table)."""
