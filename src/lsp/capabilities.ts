/** What wicket's client tells a language server it understands (`initialize`). */
export const CLIENT_CAPABILITIES = {
  general: { positionEncodings: ['utf-16'] },
  textDocument: {
    synchronization: { dynamicRegistration: false, didSave: true, willSave: false, willSaveWaitUntil: false },
    publishDiagnostics: { relatedInformation: false, versionSupport: true, codeDescriptionSupport: false, dataSupport: false },
    definition: { dynamicRegistration: false, linkSupport: false },
    implementation: { dynamicRegistration: false, linkSupport: false },
    references: { dynamicRegistration: false },
    hover: { dynamicRegistration: false, contentFormat: ['plaintext', 'markdown'] },
    documentSymbol: { dynamicRegistration: false, hierarchicalDocumentSymbolSupport: true },
    callHierarchy: { dynamicRegistration: false },
    diagnostic: { dynamicRegistration: false, relatedDocumentSupport: false },
  },
  workspace: {
    workspaceFolders: true,
    configuration: true,
    symbol: { dynamicRegistration: false },
    didChangeConfiguration: { dynamicRegistration: false },
    didChangeWatchedFiles: { dynamicRegistration: false },
  },
  window: { workDoneProgress: false },
};
