/// A loopback HTTP/1.1 stub server for tests and offline use (placeholder: lands with issue 3).
public enum FetchKitTestingModule {}
