// The MustC example program (placeholder: the program lands with issue 6).
print("MustC: not written yet; see issue 6.")
