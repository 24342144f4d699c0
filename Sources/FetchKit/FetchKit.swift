/// Endpoints, a generic fetch and its orchestration (placeholder: the module lands with issue 3).
public enum FetchKitModule {}
