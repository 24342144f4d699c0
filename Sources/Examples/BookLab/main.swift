// The BookLab example program (placeholder: the program lands with issue 6).
print("BookLab: not written yet; see issue 6.")
