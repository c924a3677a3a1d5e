import { expect, type Locator, type Page } from "@playwright/test";

/** Sign-up and sign-in pages (accounts mode). */
export class AuthPage {
  readonly email: Locator;
  readonly password: Locator;
  readonly name: Locator;
  readonly submit: Locator;
  readonly error: Locator;

  constructor(readonly page: Page) {
    this.email = page.getByTestId("auth-email");
    this.password = page.getByTestId("auth-password");
    this.name = page.getByTestId("auth-name");
    this.submit = page.getByTestId("auth-submit");
    this.error = page.getByTestId("auth-error");
  }

  async signUp(name: string, email: string, password: string) {
    await this.page.goto("/sign-up");
    await this.name.fill(name);
    await this.email.fill(email);
    await this.password.fill(password);
    await this.submit.click();
    await expect(this.page.getByTestId("account-email").first()).toHaveText(email);
  }

  async signIn(email: string, password: string) {
    await this.page.goto("/sign-in");
    await this.email.fill(email);
    await this.password.fill(password);
    await this.submit.click();
    await expect(this.page.getByTestId("account-email").first()).toHaveText(email);
  }
}

/** The sidebar's account foot: who is signed in, API keys, sign out. */
export class AccountMenu {
  readonly root: Locator;
  readonly email: Locator;

  constructor(readonly page: Page) {
    this.root = page.getByTestId("sidebar").getByTestId("account-menu");
    this.email = this.root.getByTestId("account-email");
  }

  async signOut() {
    await this.root.getByTestId("sign-out").click();
    await expect(this.page).toHaveURL(/\/sign-in$/);
    await expect(this.page.getByTestId("sign-in-page")).toBeVisible();
  }

  async openApiKeys() {
    await this.root.getByTestId("api-keys-link").click();
    await expect(this.page.getByTestId("api-keys")).toBeVisible();
  }
}

/** /settings/keys: create (shown once), list, revoke. */
export class ApiKeysPage {
  readonly rows: Locator;

  constructor(readonly page: Page) {
    this.rows = page.getByTestId("key-row");
  }

  /** Creates a key and returns it as shown (the only time it is). */
  async create(name: string): Promise<string> {
    await this.page.getByTestId("key-name").fill(name);
    await this.page.getByTestId("create-key").click();
    const value = this.page.getByTestId("new-key-value");
    await expect(value).toHaveText(/^tl_/);
    await expect(this.rows.filter({ hasText: name })).toHaveCount(1);
    return (await value.textContent())!.trim();
  }

  async revoke(name: string) {
    await this.rows.filter({ hasText: name }).getByTestId("revoke-key").click();
    await expect(this.rows.filter({ hasText: name })).toHaveCount(0);
  }
}
