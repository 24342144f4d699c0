// The Flickr example program (placeholder: the program lands with issue 6).
print("Flickr: not written yet; see issue 6.")
