// Package web will serve server-rendered pages for people who prefer a board
// to an email (a later issue; see DESIGN.md).
package web
