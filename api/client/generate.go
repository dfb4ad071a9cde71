// Package client is a Go client of courrier's HTTP API, generated from the
// API's OpenAPI document (api/openapi.yaml) by oapi-codegen.
package client

//go:generate go tool oapi-codegen -config oapi-codegen.yaml ../openapi.yaml
