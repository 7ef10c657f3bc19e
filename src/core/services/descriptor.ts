// What a service is, as data: its names, wire family, error dialect, settings, environment variables, key slot and
// shape, endpoints, pages, status-bar item, commands and capabilities. Plain data that the lowest layers (errors,
// clients, the key store) may read; what a service does lives in its module (services/<id>.ts).
import type { ServiceId } from '../../shared/serviceIds.ts';
import type { KeywardConfig } from '../config.ts';
import type { ServiceCapabilities, ServiceEndpoints, WireFamily, WireProfile } from '../wire/wireProfile.ts';

export type { ServiceCapabilities, WireFamily };

export interface ConfiguredService {
  /** Null: there is no base URL yet (compatible before it is set). */
  baseUrl: string | null;
  pages: { keys: string | null; credits: string | null };
  /** The name a person gave the service; empty when none. */
  givenName: string;
}

/**
 * Which error bodies the service sends: the routing service's `{code, message, metadata}`,
 * or OpenAI's `{message, type, param, code}` (which OpenAI-compatible servers copy).
 */
export type ErrorDialect = 'router' | 'openai';

export interface ServiceCommands {
  setKey: string;
  verifyKey: string;
  /** Rotation opens the service's keys page where it has one, then takes the new key. */
  rotateKey: string;
  deleteKey: string;
  /** What clicking the status-bar item runs. */
  actions: string;
  /** Sign in in the browser, where the service gives a key that way (the routing service's OAuth PKCE). */
  signIn?: string;
}

/**
 * Where Keyward's status items sit on the right: below the editor's own items (VS Code's editorStatus.ts puts
 * Ln/Col at 100.5, indentation 100.4, encoding 100.3, end of line 100.2, language 100.1), so none of them lands
 * between two of Keyward's, which once sat at 101, 100 and 99 with Ln/Col, Spaces and encoding in between.
 */
export const STATUS_PRIORITY = 99;

export interface AccountKeySlot {
  secretSlot: string;
  /** "management key", "admin key": localised by the host. */
  name: string;
  env: string;
  /** Whether the API can create a key that calls models (then Keyward can create and rotate keys in one step). */
  canCreate: boolean;
  /** Whether the API can disable a key (reversibly); where it cannot, a leaked key is deleted. */
  canDisable: boolean;
  /**
   * Where the API cannot create a person's key: the page of one project's keys, `{project}` standing for its id, so
   * Rotate opens the page where the stored key's successor is made. Used only while the keys page is the default.
   */
  projectKeysPage?: string;
}

export interface ServiceDescriptor extends WireProfile {
  id: ServiceId;
  /** Lower case, as it sits in a sentence: "the routing service". Localised by the host. */
  displayName: string;
  /** Capitalised, for buttons and pickers. Localised by the host. */
  label: string;
  /** On the chat's narrow service switch, with the label as its tooltip. Localised by the host. */
  shortLabel: string;
  /**
   * What the CLI's help says of it (English: the CLI is not localised). `about`: what the service is, under
   * `keyward ask --service`; `status`: what `keyward status` checks. Lines break where the text should.
   */
  cliHelp: { about: string; status: string };
  /** The word in command titles: "Set Router Key". */
  commandWord: string;
  wire: WireFamily;
  errorDialect: ErrorDialect;
  /**
   * What does what the service does: its own module (services/<id>.ts, one line in services/registry.ts), or the
   * module every OpenAI-compatible service shares, built from this descriptor (services/openAiCompatible.ts).
   */
  module: 'own' | 'openai-compatible';
  /** Null: there is no default, the user gives one (keyward.<id>.baseUrl, or --base-url). */
  defaultBaseUrl: string | null;
  settings: { baseUrl: string; name: string | null };
  env: { key: string; baseUrl: string };
  /** The SecretStorage name of the key. */
  secretSlot: string;
  /**
   * A key that manages the account instead of using it (a management key, an admin key), where the service has one:
   * its own SecretStorage name, its name in messages, and the environment variable the CLI reads it from. It is
   * never sent to a model, key-check or models endpoint; the scanner and the guard call it by this name.
   */
  accountKey?: AccountKeySlot;
  /** The label a stored key gets when the user gives none. */
  keyLabel: string;
  /** What the Set Key input shows as its placeholder. */
  keyPlaceholder: string;
  /** What the Set Key box asks for. Localised by the host. */
  keyPrompt: string;
  /** Rule ids (secretlint's, and the presets that include them) that find this service's keys: a secretlint pragma naming one allows the line. */
  secretlintRules: readonly string[];
  /**
   * A key of this service that no free request can judge (a 401 there would not mean dead): `keyward scan
   * --verify` and the editor's live check call it unknown, with this reason, instead of asking. Null: every key can be
   * asked about.
   */
  unverifiableKey: { prefix: string; reason: string } | null;
  /** Key shape checked when a key is set (core/keys/keyFormats.ts); null takes any shape. */
  keyShape: 'router' | 'direct' | null;
  endpoints: ServiceEndpoints;
  /** Default pages; the settings may move them (KeywardConfig). */
  pages: { keys: string | null; credits: string | null };
  /** What the settings say about this service: its base URL (null: not set up yet), its pages, the name given it. */
  configured(config: KeywardConfig): ConfiguredService;
  /** The status-bar item: its id, its name in the bar's context menu (localised by the host), its place. */
  /** `priority` is STATUS_PRIORITY plus a hundredth per place, so Keyward's items stay side by side. */
  statusBar: { id: string; name: string; priority: number; shown: 'always' | 'when-configured' };
  commands: ServiceCommands;
  capabilities: ServiceCapabilities;
}
