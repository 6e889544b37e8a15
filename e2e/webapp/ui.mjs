// Small helpers for acting on the app's Angular Material UI.

const overlay = '.cdk-overlay-container';

// clickText clicks the first visible button or menu item whose text
// matches, inside scope (default: the page).
export async function clickText(page, text, scope = 'body') {
  const target = page.locator(scope).locator('button, [mat-menu-item], .mat-mdc-menu-item, a, [role="menuitem"], span').filter({hasText: text});
  await target.first().click({timeout: 8000});
  await page.waitForTimeout(400);
}

// contextMenu right-clicks the table row holding rowText and picks item.
export async function contextMenu(page, rowText, item) {
  const row = page.locator('.ag-row, tr, .table-row, [role="row"]').filter({hasText: rowText}).first();
  await row.waitFor({timeout: 10000});
  await row.click({button: 'right'});
  await page.locator(overlay).locator('.mat-mdc-menu-item, [mat-menu-item]').filter({hasText: item}).first().click({timeout: 8000});
  await page.waitForTimeout(400);
}

// confirm presses the confirming button of the open dialog.
export async function confirm(page, text) {
  await page.locator('mat-dialog-container button').filter({hasText: text}).last().click({timeout: 8000});
  await page.waitForTimeout(600);
}

// fillDialog types into the first matching field of the open dialog.
export async function fillDialog(page, selector, value) {
  const field = page.locator('mat-dialog-container').locator(selector).first();
  await field.fill(value, {timeout: 8000});
}

// cardMenu opens the menu of the project card holding name and picks the
// item whose data-id is item.
export async function cardMenu(page, name, item) {
  const card = page.locator('sm-project-card').filter({hasText: name}).first();
  await card.locator('sm-menu').first().click();
  await page.locator(`${overlay} [data-id="${item}"]`).first().click();
  await page.waitForTimeout(400);
}
