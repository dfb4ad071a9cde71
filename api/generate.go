package api

// The server (models, Echo strict server, embedded document) and the client
// share one package and so one set of models; both run the oapi-codegen
// pinned by go.mod's tool directive.
//go:generate go tool oapi-codegen -config oapi-codegen.yaml openapi.yaml
//go:generate go tool oapi-codegen -config oapi-codegen-client.yaml openapi.yaml
