// Another extension, as a person might install one, that uses Keyward's models through vscode.lm: its one command
// ("Keyward E2E Caller: Ask a Keyward Model") sends a prompt to Keyward's gpt-4o-mini family and shows the answer or
// the error in a notification. Built as a VSIX at run time (fflate) and installed next to Keyward, so the UI steps
// see Keyward's one-time question about it as a person would (test/e2e/ui/languageModelSteps.ts).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { strToU8, zipSync } from 'fflate';

export const CALLER_ID = 'keyward-e2e.lm-caller';
export const CALLER_NAME = 'Keyward E2E Caller';

const MANIFEST = {
  name: 'lm-caller',
  publisher: 'keyward-e2e',
  displayName: CALLER_NAME,
  description: 'Asks a Keyward model through vscode.lm, for Keyward’s end-to-end tests.',
  version: '0.0.1',
  engines: { vscode: '^1.104.0' },
  main: './extension.js',
  // The palette's command activates it by its contribution; the suite's command, not in the palette, by this.
  activationEvents: ['onCommand:keywardE2eCaller.send'],
  contributes: {
    commands: [{ command: 'keywardE2eCaller.ask', title: 'Ask a Keyward Model', category: CALLER_NAME }],
  },
};

const MAIN = `const vscode = require('vscode');
exports.activate = (context) => {
  context.subscriptions.push(
    vscode.commands.registerCommand('keywardE2eCaller.ask', async () => {
      try {
        const models = await vscode.lm.selectChatModels({ vendor: 'keyward', family: 'gpt-4o-mini' });
        const model = models.find((m) => m.id.startsWith('router/'));
        if (!model) throw new Error('no Keyward gpt-4o-mini model');
        const response = await model.sendRequest([vscode.LanguageModelChatMessage.User('Hello from another extension')]);
        let text = '';
        for await (const chunk of response.text) text += chunk;
        void vscode.window.showInformationMessage('Caller got an answer: ' + text.slice(0, 60));
      } catch (error) {
        void vscode.window.showErrorMessage('Caller was refused: ' + (error && error.message ? error.message : String(error)));
      }
    }),
    // For the in-host suite: the same request with its own words, its answer returned and its error thrown, so a test
    // sees what Keyward does for a caller that is not itself (the suite's own code runs inside Keyward's folder,
    // and VS Code names Keyward as the initiator of its requests).
    vscode.commands.registerCommand('keywardE2eCaller.send', async (prompt) => {
      const models = await vscode.lm.selectChatModels({ vendor: 'keyward', family: 'gpt-4o-mini' });
      const model = models.find((m) => m.id.startsWith('router/'));
      if (!model) throw new Error('no Keyward gpt-4o-mini model');
      const response = await model.sendRequest([vscode.LanguageModelChatMessage.User(String(prompt))]);
      let text = '';
      for await (const chunk of response.text) text += chunk;
      return text;
    }),
  );
};
`;

const CONTENT_TYPES = `<?xml version="1.0" encoding="utf-8"?>
<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension=".json" ContentType="application/json"/><Default Extension=".js" ContentType="application/javascript"/><Default Extension=".vsixmanifest" ContentType="text/xml"/></Types>`;

const VSIX_MANIFEST = `<?xml version="1.0" encoding="utf-8"?>
<PackageManifest Version="2.0.0" xmlns="http://schemas.microsoft.com/developer/vsx-schema/2011">
  <Metadata>
    <Identity Language="en-US" Id="${MANIFEST.name}" Version="${MANIFEST.version}" Publisher="${MANIFEST.publisher}"/>
    <DisplayName>${CALLER_NAME}</DisplayName>
    <Description xml:space="preserve">${MANIFEST.description}</Description>
    <Properties><Property Id="Microsoft.VisualStudio.Code.Engine" Value="${MANIFEST.engines.vscode}"/></Properties>
  </Metadata>
  <Installation><InstallationTarget Id="Microsoft.VisualStudio.Code"/></Installation>
  <Dependencies/>
  <Assets><Asset Type="Microsoft.VisualStudio.Code.Manifest" Path="extension/package.json" Addressable="true"/></Assets>
</PackageManifest>`;

/** Writes the caller's VSIX into the folder and returns its path. */
export function writeCallerVsix(folder: string): string {
  const file = join(folder, 'lm-caller.vsix');
  writeFileSync(
    file,
    zipSync({
      '[Content_Types].xml': strToU8(CONTENT_TYPES),
      'extension.vsixmanifest': strToU8(VSIX_MANIFEST),
      'extension/package.json': strToU8(JSON.stringify(MANIFEST, null, 2)),
      'extension/extension.js': strToU8(MAIN),
    }),
  );
  return file;
}
