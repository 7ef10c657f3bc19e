// A QuickPick as far as the conversation list uses one: its items and title-bar buttons as set, and the person's
// moves (accept, a title button, a row's button, hide) driven by the test.

/** An event of its own, so this file and fakeVscode.ts do not import each other. */
class EventEmitter<T> {
  private readonly listeners = new Set<(value: T) => unknown>();
  readonly event = (listener: (value: T) => unknown) => {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  };
  fire(value: T): void {
    for (const listener of [...this.listeners]) void listener(value);
  }
}

export class ThemeIcon {
  readonly id: string;
  constructor(id: string) {
    this.id = id;
  }
}

interface Button {
  iconPath: unknown;
  tooltip?: string;
}

export class FakeQuickPick<T extends { label: string }> {
  title: string | undefined;
  placeholder: string | undefined;
  value = '';
  matchOnDescription = false;
  matchOnDetail = false;
  items: readonly T[] = [];
  activeItems: readonly T[] = [];
  selectedItems: readonly T[] = [];
  buttons: readonly Button[] = [];
  visible = false;
  private readonly accepted = new EventEmitter<void>();
  private readonly hidden = new EventEmitter<void>();
  private readonly valueChanged = new EventEmitter<string>();
  private readonly button = new EventEmitter<Button>();
  private readonly itemButton = new EventEmitter<{ button: Button; item: T }>();
  readonly onDidAccept = this.accepted.event;
  readonly onDidHide = this.hidden.event;
  readonly onDidChangeValue = this.valueChanged.event;
  readonly onDidTriggerButton = this.button.event;
  readonly onDidTriggerItemButton = this.itemButton.event;

  show(): void {
    this.visible = true;
  }
  hide(): void {
    if (!this.visible) return;
    this.visible = false;
    this.hidden.fire();
  }
  dispose(): void {
    this.visible = false;
  }
  /** The person types into the box. */
  type(value: string): void {
    this.value = value;
    this.valueChanged.fire(value);
  }
  /** Enter on `item`. */
  accept(item: T): void {
    this.selectedItems = [item];
    this.accepted.fire();
  }
  /** A title-bar button, by its tooltip. */
  press(tooltip: RegExp): void {
    const found = this.buttons.find((b) => tooltip.test(b.tooltip ?? ''));
    if (!found)
      throw new Error(`no title-bar button ${String(tooltip)}: ${this.buttons.map((b) => b.tooltip).join(', ')}`);
    this.button.fire(found);
  }
  /** A row's button, by its tooltip. */
  pressOnRow(item: T, tooltip: string): void {
    const found = ((item as { buttons?: Button[] }).buttons ?? []).find((b) => b.tooltip === tooltip);
    if (!found) throw new Error(`no ${tooltip} button on ${item.label}`);
    this.itemButton.fire({ button: found, item });
  }
}
