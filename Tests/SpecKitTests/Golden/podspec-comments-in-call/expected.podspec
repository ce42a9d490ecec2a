Pod::Spec.new do |s|
  s.name = 'Payments' # the name
  # s.dependency 'Core', '~> 0.1' is an old line
  s.dependency 'Core', # the core module
               '1.0.1' # keep in sync with the app
  s.dependency(
    'Net', # networking
    '2.0.0', # the bound
  )
end
